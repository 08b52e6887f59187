import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { chooseUsers } from "./experiment-form";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { experimentReplies } from "../test/experiment-replies";

/**
 * A researcher estimates, launches and watches an experiment on the demo data; the assistant role is
 * the global setup's fake model (TEST DOUBLE), the judge role is pointed by an admin (Admin → Models)
 * at this spec's own fake server, which answers the G-Score judge. Then the results table, an item's
 * drill-down and the case studies.
 */
let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ latencyMs: 20 });
  fake.setResponder(experimentReplies());
});
test.afterAll(async () => {
  await fake.close();
});

test("estimate, launch, watch, results, drill-down and case study", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/models`);
  for (const role of ["judge"]) {
    const card = page.getByTestId(`model-${role}`);
    const form = card.getByRole("form", { name: `Settings of ${role}` });
    await form.getByLabel(/Base URL/).fill(fake.baseURL);
    await form.getByLabel("Model").fill(`e2e-${role}`);
    await form.getByLabel(/API key/).fill("sk-e2e");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(`Saved ${role}.`)).toBeVisible();
  }

  const researcher = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(researcher, account("researcher"));
  await researcher.goto(`${e2eState().baseURL}/experiments`);
  const form = researcher.getByRole("form", { name: "New experiment" });
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  // The data sets are grouped by kind; the option reads as the data set's name.
  await expect(
    form.getByTestId("dataset").locator("optgroup[label='PAL-Set'] option").getByText("PAL-Set demo (en)", { exact: true }),
  ).toHaveCount(1);
  // The form opens on the data set's preset: a custom run is one click away.
  await expect(form.getByTestId("preset")).toHaveValue("mem-pal");
  await form.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
  // Custom starts from the kind's preset too (issue 31): what it leaves is the preset's, its retriever dense.
  await expect(form.getByTestId("custom-base")).toContainText("A custom run starts from the Reproduce Mem-PAL protocol");
  await expect(form.getByLabel("Retriever")).toHaveValue("dense");
  await researcher.setViewportSize({ width: 1440, height: 900 });
  await form.screenshot({ path: test.info().outputPath("custom-from-preset.png") });
  await form.getByLabel("Vanilla + logs", { exact: true }).check();
  await form.getByLabel("Requirement restatement (Task 1)").check();
  await chooseUsers(form, ["0000"]);
  await form.getByRole("button", { name: "Estimate" }).click();
  const estimate = form.getByTestId("estimate");
  await expect(estimate).toContainText("total");
  await expect(estimate.getByRole("row").filter({ hasText: "Vanilla + logs" }).first()).toContainText("requirement");
  // Building vanilla-log's memory calls no model: a build row with 0 calls for its one user.
  const build = estimate.getByTestId("estimate-build").filter({ hasText: "Vanilla + logs" });
  await expect(build).toContainText("memory build");
  await expect(build).toContainText("1 (0 built)");
  await expect(estimate).toContainText("total with memory building");
  // With repeats, Items says what it counts: the items of one run times the runs (issue 34.3).
  await form.getByLabel("Repeats").fill("3");
  await form.getByRole("button", { name: "Estimate" }).click();
  await expect(estimate.getByRole("row").filter({ hasText: "Vanilla + logs" }).first()).toContainText(/\d+ × 3 runs = \d+/);
  if (process.env.PAPER_SHOTS) await researcher.screenshot({ path: `${process.env.PAPER_SHOTS}/estimate-repeats.png` });
  await form.getByLabel("Repeats").fill("1");
  // That an estimate spends nothing is checked where no other spec shares the endpoint (lib/experiments/service.test.ts,
  // "estimates without calls"): the global judge role this spec points here is also used by specs running beside it.

  await form.getByRole("button", { name: "Launch" }).click();
  await researcher.waitForURL(/\/experiments\/\d+$/);
  await expect(researcher.getByTestId("status")).toHaveText("done", { timeout: 60_000 });
  await expect(researcher.getByTestId("counts")).toContainText("0 failed");
  // The page polls progress only; the full answer also carries the results.
  const api = researcher.url().replace("/experiments/", "/api/experiments/");
  const polled = await (await researcher.request.get(`${api}?only=progress`)).json();
  expect(Object.keys(polled)).toEqual(["progress"]);
  expect(polled.progress.status).toBe("done");
  expect((await (await researcher.request.get(api)).json()).results.status).toBe("done");

  // The results open on the paper table (Mem-PAL Table 2: G-Score 75.00 for both).
  const paper = researcher.getByTestId("paper-table-mem-pal-table2");
  await expect(paper).toBeVisible();
  await expect(paper.locator('tbody[data-section="run"] tr[data-method="vanilla"] td[data-column="requirement.gscore"]')).toContainText(
    "75.00",
  );
  await researcher.getByRole("tab", { name: "All metrics" }).click();
  const table = researcher.getByTestId("results-requirement");
  await expect(table).toBeVisible();
  for (const m of ["vanilla", "vanilla-log"]) {
    await expect(table.locator(`tr[data-method="${m}"] td[data-metric="gscore"]`)).toHaveText("75.00");
  }
  // Columns in the paper's order (B-1..B-4, then G-Score), not A-Z (issue 34.3).
  const heads = (await table.locator("thead th").allInnerTexts()).map((x) => x.trim());
  expect(heads.slice(0, 7)).toEqual(["Method", "Runs", "B-1", "B-2", "B-3", "B-4", "G-Score"]);
  await table.getByRole("button", { name: "Method" }).click(); // sort by method, ascending
  await table.getByRole("button", { name: "Method" }).click(); // then descending
  await expect(table.locator("tbody tr").first()).toHaveAttribute("data-method", "vanilla-log");
  await expect(researcher.getByTestId("charts-requirement").getByRole("img", { name: "G-Score by method" })).toBeVisible();
  // Costs have their own table: memory building apart from answering (vanilla-log's costs no call).
  await researcher.getByRole("tab", { name: "Costs" }).click();
  await expect(researcher.locator('[data-testid="cost-table"] tr[data-method="vanilla-log"] [data-part="memory-build"]')).toHaveText("0");
  // Methods under their display names, not their keys (issue 34.3).
  await expect(researcher.locator('[data-testid="cost-table"] tr[data-method="vanilla-log"] td').first()).toHaveText("Vanilla + logs");
  if (process.env.PAPER_SHOTS) await researcher.screenshot({ path: `${process.env.PAPER_SHOTS}/experiment-costs.png` });

  const jobsTable = researcher.getByTestId("job-list");
  await jobsTable.getByRole("button", { name: "Star item" }).first().click();
  await expect(jobsTable.getByRole("button", { name: "Unstar item" })).toHaveCount(1);
  await jobsTable.getByRole("link").first().click();
  const drill = researcher.getByTestId("drilldown");
  // An item's G-Score is its judge points, read on their own scale (the tables show the mean × 50).
  await expect(drill.getByTestId("scores")).toContainText("G-Score 1.5 of 2 points (75 on the tables' 0-100 scale)");
  if (process.env.PAPER_SHOTS) await researcher.screenshot({ path: `${process.env.PAPER_SHOTS}/item-scores.png` });
  await expect(drill.getByTestId("item-info")).toContainText("Requirement (reference)");
  await expect(drill).toContainText("The user wants a plan that suits them.");

  // Back to the experiment by its automatic name, which says what ran (issue 44.8: data set: methods × tasks, users).
  await researcher.getByRole("link", { name: / × .*, (all users|user \S+|\d+ users)$/ }).click();
  await researcher.getByRole("link", { name: "Case studies" }).click();
  const study = researcher.getByTestId("case-study");
  await expect(study).toHaveCount(1);
  await expect(study).toContainText("Vanilla + logs");
  // Titled by the user's query, the item key beside it (issue 34.3).
  await expect(study.locator("h2")).not.toContainText("0000/");
  await expect(study.locator("h2")).not.toBeEmpty();
  const md = await researcher.request.get(
    researcher.url().replace("/case-studies", "").replace("/experiments/", "/api/experiments/") + "/export?format=md",
  );
  expect(md.status()).toBe(200);
  expect(await md.text()).toMatch(/^# Case studies: /);
});
