/**
 * The PI's agreement dashboard (issue 26.1–26.3): two annotators label a pairwise campaign, a judge that
 * calls every item a tie is imported; /agreement then shows Fleiss' kappa and Krippendorff's alpha with
 * their intervals, the judge's kappa as "undefined (constant ratings)" rather than 0, the warnings, the
 * forest plot, and filters; the campaign page shows the annotators; the export carries the same.
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

test("agreement dashboard: intervals, the constant-judge rule, warnings, forest plot, filters; annotators on the campaign page", async ({
  page,
  browser,
}, testInfo) => {
  const base = e2eState().baseURL;
  const name = `Dashboard e2e ${Date.now()}`;
  await login(page, account("researcher"));
  await page.goto(`${base}/campaigns/new`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  for (const a of annotators()) await page.getByRole("checkbox", { name: a.email }).check();
  await page.getByLabel("Annotations per item (k)").fill("2");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());

  // Both call every preference a tie (constant raters); on requirement annotator 2 alternates.
  const [a1, a2] = annotators();
  const s1 = await annotatorPage(browser, a1);
  const s2 = await annotatorPage(browser, a2);
  expect(await annotateAll(s1.page, id, () => ["w", "t"])).toBe(6);
  expect(await annotateAll(s2.page, id, (i) => (i % 2 ? ["l", "t"] : ["w", "t"]))).toBe(6);
  await s1.ctx.close();
  await s2.ctx.close();

  // A judge whose verdicts are all Tie.
  await page.goto(`${base}/campaigns/${id}`);
  const verdicts = [1, 2, 3, 4, 5, 6]
    .map((i) => JSON.stringify({ item: `topic-${i}`, dimension: "requirement", verdict: "Tie" }))
    .join("\n");
  const form = page.getByRole("form", { name: "Import judge verdicts" });
  await form.getByLabel("Judge name").fill("all-ties");
  await form.getByLabel("Verdicts file").setInputFiles({ name: "ties.jsonl", mimeType: "text/plain", buffer: Buffer.from(verdicts) });
  await form.getByRole("button", { name: "Import verdicts" }).click();
  await expect(form.getByRole("status")).toHaveText("Imported 6 verdicts.");

  // The campaign page: the report arrives by itself (computed in the background), with the annotators and warnings.
  await page.goto(`${base}/campaigns/${id}`);
  await expect(page.getByTestId("agreement-age")).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  await expect(page.getByTestId("agreement-age")).toContainText(/computed (just now|\d+ s ago)/);
  const table = page.getByTestId("annotators-table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(page.getByTestId(`annotator-${a1.email}`)).toContainText("6");
  await expect(page.getByTestId(`annotator-${a1.email}-preference`)).toContainText("undefined (constant ratings)");
  const warnings = page.getByTestId("agreement-warnings");
  await expect(warnings.locator('[data-kind="small-n"]')).toHaveCount(2);
  await expect(warnings.locator('[data-kind="constant-rater"]').first()).toContainText('gave "Tie" on all 6 items');
  await expect(warnings.locator('[data-kind="constant-judge"]')).toContainText('judge all-ties gave "Tie" on all 6 items');

  await page.setViewportSize({ width: 1440, height: 900 });
  await warnings.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("campaign-agreement.png") });
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("campaign-annotators.png") });

  // The dashboard, filtered to pairwise campaigns.
  await page.goto(`${base}/agreement?kind=pairwise-dialogue`);
  const card = page.getByTestId(`agreement-campaign-${id}`);
  await expect(card.getByTestId(`agreement-age-${id}`)).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  await expect(card.getByTestId(`agreement-progress-${id}`)).toContainText("12 / 12 labelled (100%)");
  await expect(card.getByTestId(`agreement-fleiss-${id}-requirement`)).toContainText(/-?\d\.\d{3}/);
  await expect(card.getByTestId(`agreement-fleiss-${id}-requirement`)).toContainText("n = 6");
  // 6 items: below the minimum for an interval (issue 44.4): the estimate, n and the note; no interval, no word.
  const alpha = card.getByTestId(`agreement-alpha-${id}-requirement`);
  await expect(alpha).toContainText("too few items for an interval (n = 6 < 10)");
  await expect(alpha).not.toContainText(/\[-?\d\.\d{3}, -?\d\.\d{3}\]/);
  await expect(alpha).not.toContainText(/poor|slight|fair|moderate|substantial|almost perfect/);
  // The all-Tie judge: undefined, never "0.000 poor".
  const judge = card.getByTestId(`agreement-judges-${id}-requirement`);
  await expect(judge).toContainText("all-ties");
  await expect(judge).toContainText("undefined (constant ratings)");
  await expect(judge).not.toContainText("0.000");
  await expect(card.getByTestId("agreement-warnings")).toContainText("fewer than 30");
  const forest = page.getByTestId("forest-plot");
  await expect(forest).toBeVisible();
  await expect(forest.locator(".recharts-scatter-symbol").first()).toBeVisible();
  await expect(forest).toContainText(`${name} · `);
  await expect(forest).toContainText("(n = 6, too few)");
  await expect(forest.getByTestId("forest-too-few")).toBeVisible();
  await forest.screenshot({ path: testInfo.outputPath("forest-plot.png") });
  // Each annotator across the campaigns shown, with their kappa per campaign and dimension (issue 34.7).
  const across = page.getByTestId("annotators-across");
  const row = across.getByRole("row").filter({ hasText: a1.email });
  await expect(row).toContainText(`${name} · `);
  await expect(row).toContainText("undefined (constant ratings)");
  await page.setViewportSize({ width: 1440, height: 900 });
  await across.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("agreement-annotators-across.png") });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("agreement-dashboard.png") });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("agreement-dashboard-card.png") });

  // Another kind: this campaign is filtered out; clearing the filter brings it back.
  await page.getByLabel("Campaign kind").selectOption("hicupid-ab");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=hicupid-ab/);
  await expect(page.getByTestId(`agreement-campaign-${id}`)).toHaveCount(0);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page.getByTestId(`agreement-campaign-${id}`)).toBeVisible();

  // The export: annotators, the Fleiss interval per dimension and the warnings.
  const exported = await (await page.request.get(`${base}/api/campaigns/${id}/export?format=json`)).json();
  expect(exported.agreement.annotators.map((a: { annotator: string }) => a.annotator).sort()).toEqual([a1.email, a2.email].sort());
  expect(exported.agreement.annotators[0]).toEqual(
    expect.objectContaining({
      labels: 6,
      medianSeconds: expect.any(Number),
      agreement: expect.objectContaining({ requirement: expect.any(Object) }),
    }),
  );
  expect(exported.agreement.dimensions[0].report).toHaveProperty("fleissCi");
  expect(exported.agreement.warnings.map((w: { kind: string }) => w.kind)).toContain("constant-judge");
});
