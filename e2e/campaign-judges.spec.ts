/**
 * The campaign page's judge tables (issue 30.2, 30.5, 34.5, 34.6): Table 11 comes from the background
 * agreement report with its age, each run's disagreements show five items and open a page at a time,
 * deleting the run makes the report stale so its table goes; the annotators' drift shows n per half and
 * an interval without red on a handful of items.
 */
import path from "node:path";
import { test, expect } from "./fixtures";
import { e2eState, login, account, type Account } from "./state";
import { annotateAll, annotatorPage } from "./annotate";

const ROOT = path.resolve(import.meta.dirname, "..");

test.describe.configure({ mode: "serial" });

function annotators(): Account[] {
  return e2eState()
    .accounts.filter((x) => x.role === "annotator")
    .slice(0, 2);
}

test("campaign page: judge tables from the report with its age, paged disagreements, a deleted run goes, drift without red on few items", async ({
  page,
  browser,
}, testInfo) => {
  // Two annotators label 12 items and two reports are computed in the background: slow on a loaded machine.
  test.setTimeout(180_000);
  const base = e2eState().baseURL;
  await login(page, account("researcher"));
  await page.goto(`${base}/campaigns/new`);
  await page.getByLabel("Name").fill(`Judges e2e ${Date.now()}`);
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  for (const a of annotators()) await page.getByRole("checkbox", { name: a.email }).check();
  await page.getByLabel("Annotations per item (k)").fill("2");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());

  const [a1, a2] = annotators();
  const s1 = await annotatorPage(browser, a1);
  const s2 = await annotatorPage(browser, a2);
  expect(await annotateAll(s1.page, id, (i) => ["w", i % 2 ? "w" : "l"])).toBe(6);
  expect(await annotateAll(s2.page, id, () => ["w", "w"])).toBe(6);
  await s1.ctx.close();
  await s2.ctx.close();

  // A judge that disagrees with the humans' majority on every item (sides are shown swapped at random, so
  // the canonical labels are read from the export): six disagreements.
  const { labels } = (await (await page.request.get(`${base}/api/campaigns/${id}/export?format=json`)).json()) as {
    labels: Array<{ item: string; dimension: string; value: string }>;
  };
  const verdicts = [1, 2, 3, 4, 5, 6]
    .map((i) => {
      const votes = labels.filter((l) => l.item === `topic-${i}` && l.dimension === "requirement").map((l) => l.value);
      const verdict = votes[0] === votes[1] && votes[0] === "Win" ? "Lose" : "Win";
      return JSON.stringify({ item: `topic-${i}`, dimension: "requirement", verdict });
    })
    .join("\n");
  await page.goto(`${base}/campaigns/${id}`);
  const form = page.getByRole("form", { name: "Import judge verdicts" });
  await form.getByLabel("Judge name").fill("contrarian");
  await form.getByLabel("Verdicts file").setInputFiles({ name: "lose.jsonl", mimeType: "text/plain", buffer: Buffer.from(verdicts) });
  await form.getByRole("button", { name: "Import verdicts" }).click();
  await expect(form.getByRole("status")).toHaveText("Imported 6 verdicts.");

  // The tables arrive with the report, its age beside the section's heading.
  await page.goto(`${base}/campaigns/${id}`);
  await expect(page.getByTestId("agreement-age")).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  await expect(page.getByTestId("judges-age")).toContainText(/computed (just now|\d+ s ago)/);
  const table11 = page.getByTestId("table11");
  await expect(table11).toBeVisible();
  const runId = Number((await page.locator('[data-testid^="judge-"]').first().getAttribute("data-testid"))!.split("-")[1]);
  const list = page.getByTestId(`item-list-${runId}-requirement`);
  await expect(list.getByRole("listitem")).toHaveCount(5);
  await expect(list.getByRole("link", { name: "Plan a weekend trip" })).toBeVisible();
  // Mem-PAL's own Table 11 below the run's: the demo compares the paper's systems (H2Memory vs Vanilla (with log)).
  const paper = table11.getByTestId("published-table11");
  await expect(paper).toHaveAttribute("data-same", "yes");
  await expect(paper).toContainText("Mem-PAL, Table 11 (the same comparison, 80 topics)");
  await expect(paper.getByRole("row", { name: /Evaluation-LLM/ })).toHaveText(/Evaluation-LLM45 \/ 4 \/ 3144 \/ 1 \/ 35/);
  await expect(paper.getByRole("row", { name: /Human \(vote\)/ })).toHaveText(/31 \/ 26 \/ 2341 \/ 11 \/ 28/);
  await expect(paper.getByRole("row", { name: /Fleiss/ })).toHaveText(/0\.540\.62/);
  await expect(page.getByTestId("published-table11-notes").first()).toContainText("model not recorded (imported verdicts)");
  await page.setViewportSize({ width: 1440, height: 900 });
  await table11.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("campaign-judges.png") });

  // Opened: all six, a page at a time, with a way back.
  await list.getByRole("link", { name: "all 6 →" }).click();
  await expect(page).toHaveURL(new RegExp(`list=${runId}-requirement`));
  await expect(page.getByTestId(`item-list-${runId}-requirement`).getByRole("listitem")).toHaveCount(6);
  await expect(page.getByTestId(`item-list-${runId}-requirement`)).toContainText("1–6 of 6");
  await page.getByTestId("table11").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("campaign-judges-open.png") });

  // An item of the list: no adjudicated label is pre-chosen (issue 34.7); pairwise labels are for side A.
  const itemHref = await page.getByTestId(`item-list-${runId}-requirement`).getByRole("link").first().getAttribute("href");
  await page.goto(`${base}${itemHref}`);
  await expect(page.getByLabel("Adjudicated label for requirement")).toHaveValue("");
  await expect(page.getByRole("columnheader", { name: "Label (for A)" }).first()).toBeVisible();
  await page.goto(`${base}/campaigns/${id}?list=${runId}-requirement`);

  // The annotators' drift on 3 items per half: n per half, an interval, never red.
  const drift = page.getByTestId(`drift-${a1.email}-preference`);
  if (await drift.count()) {
    await expect(drift).toContainText("(n 3)");
    await expect(drift).toHaveAttribute("data-flagged", "no");
    await expect(drift).toContainText("too few items per half");
    await drift.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("campaign-drift.png") });
  }

  // Deleting the run makes the report stale (issue 30.5): its table goes once the new report is in.
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Delete judge run contrarian" }).click();
  await expect(page.getByTestId(`judge-${runId}`)).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId("agreement-age")).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  const exported = await (await page.request.get(`${base}/api/campaigns/${id}/export?format=json`)).json();
  expect(exported.agreement.judges).toEqual([]);
  await page.goto(`${base}/agreement?kind=pairwise-dialogue`);
  await expect(page.getByTestId(`agreement-judges-${id}-requirement`)).toContainText("no judge run");
});
