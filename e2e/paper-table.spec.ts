import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { KNOWN_EXPERIMENT_CONFIG, seedHitRateExperiment, seedKnownExperiment } from "../test/known-experiment";

/**
 * The experiment page opens on the paper tables of a known experiment (test/known-experiment.ts: hand-chosen
 * scores, no model call): bold/underline/† in the cells the fixtures have them, the published rows and the
 * difference, each run's W/T/L on demand, the downloads equal to `pal table`'s fixtures; the other views
 * (metrics with legends and charts, costs). Set PAPER_SHOTS=<dir> to save 1440x900 screenshots.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const SHOTS = process.env.PAPER_SHOTS;

test("a researcher reads the paper tables of an experiment and downloads them", async ({ page }) => {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  let id: number;
  try {
    const ds = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
    id = seedKnownExperiment(db, { name: "Known experiment (paper tables)", datasetId: ds });
  } finally {
    db.close();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments/${id}`);

  await expect(page.getByRole("tab", { name: "Paper table" })).toHaveAttribute("aria-selected", "true");
  const t2 = page.getByTestId("paper-table-mem-pal-table2");
  await expect(t2).toBeVisible();
  const run = t2.locator('tbody[data-section="run"]');
  const cell = (method: string, column: string) => run.locator(`tr[data-method="${method}"] td[data-column="${column}"]`);
  // Requirement B-1: H2Memory best (bold), MemoryBank second (underlined), Vanilla significantly below the reference (†).
  await expect(cell("h2memory", "requirement.bleu1")).toHaveAttribute("data-rank", "1");
  await expect(cell("h2memory", "requirement.bleu1").locator("b")).toHaveText("31.00 ± 1.00");
  await expect(cell("memorybank", "requirement.bleu1").locator("u")).toHaveText("22.00 ± 2.00");
  await expect(cell("vanilla", "requirement.bleu1")).toHaveAttribute("data-sig", "yes");
  await expect(cell("vanilla", "requirement.bleu1")).toHaveText("11.00 ± 1.00†");
  // Solution B-1: MemoryBank beats the reference here.
  await expect(cell("memorybank", "solution.bleu1").locator("b")).toHaveText("26.00 ± 1.00");
  await expect(cell("vanilla", "solution.selection")).toHaveText("-25.00 ± 25.00");
  // Mem-PAL's own rows beside them, with the difference.
  await expect(t2.locator('tbody[data-section="reported"]')).toContainText("Reported in Mem-PAL, Table 2");
  await expect(t2.locator('tbody[data-section="reported"] tr[data-method="h2memory"]')).toHaveText(
    "H2Memory26.6712.185.683.0932.5422.248.384.392.6538.32",
  );
  await expect(t2.locator('tbody[data-section="difference"] tr[data-method="h2memory"] td[data-column="requirement.bleu1"]')).toHaveText(
    "+4.33",
  );
  await expect(t2.locator("figcaption")).toContainText("G-Score: the judge gives each topic 0-2 points");

  // Table 3: W/T/L per run as a mean ± sd over the 3 runs (W + T + L = 2 topics), each run on demand.
  const t3 = page.getByTestId("paper-table-mem-pal-table3");
  await expect(t3.locator('tbody[data-section="run"] tr[data-method="vanilla"]')).toHaveText(
    "Vanilla (w/o log)1.3 ± 0.60.3 ± 0.60.3 ± 0.62.0 ± 0.00.0 ± 0.00.0 ± 0.0",
  );
  await expect(t3.locator('tbody[data-section="reported"] tr[data-method="vanilla"]')).toHaveText("Vanilla (w/o log)4782931948018328");
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, "paper-table.png") });
  }
  // Table 10 (DeepSeek-V3.1): this run's model is another, so its rows are reference only, no difference.
  const t10 = page.getByTestId("paper-table-mem-pal-table10");
  await expect(t10.locator('tbody[data-section="run"]')).toContainText("This run (qwen-max-0428)");
  await expect(t10.locator('tbody[data-section="reference"]')).toContainText(
    "For reference only: Mem-PAL, Table 10, DeepSeek-V3.1 (not this run's model; no difference taken)",
  );
  await expect(t10.locator('tbody[data-section="reference"] tr[data-method="h2memory"]')).toHaveText("H2Memory49.7740.40");
  await expect(t10.locator('tbody[data-section="reported"], tbody[data-section="difference"]')).toHaveCount(0);
  if (SHOTS) {
    await t10.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, "paper-table-10-reference.png") });
  }
  const perRun = page.getByTestId("wtl-per-run");
  await perRun.locator("summary").click();
  const row = perRun.locator('tr[data-pair="h2memory~vanilla"][data-dimension="requirement"]');
  await expect(row.locator("td[data-run]")).toHaveText(["2 / 0 / 0", "1 / 1 / 0", "1 / 0 / 1"]);
  if (SHOTS) {
    await t3.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, "paper-table-3.png") });
  }

  // The downloads are `pal table`'s files.
  const tex = await page.request.get(
    await page
      .getByTestId("download-latex")
      .getAttribute("href")
      .then((h) => `${e2eState().baseURL}${h}`),
  );
  expect(tex.headers()["content-disposition"]).toBe(`attachment; filename="experiment-${id}-paper-tables.tex"`);
  expect(await tex.text()).toBe(
    fs
      .readFileSync(path.join(ROOT, "fixtures/paper-tables/known-experiment.tex"), "utf8")
      .replace("Experiment 1 (Known experiment)", `Experiment ${id} (Known experiment (paper tables))`)
      // The e2e data set has users (the unit fixture's has none): Table 2 names them beside its topics (issue 44.4).
      .replace("this run's: 2 topics.", "this run's: 2 topics of 3 users."),
  );
  const csv = await page.request.get(`${e2eState().baseURL}/api/experiments/${id}/paper-table?format=csv`);
  expect(await csv.text()).toBe(fs.readFileSync(path.join(ROOT, "fixtures/paper-tables/known-experiment.csv"), "utf8"));
  const one = await page.request.get(`${e2eState().baseURL}/api/experiments/${id}/paper-table?format=markdown&table=mem-pal-table3`);
  expect(await one.text()).toContain("### Mem-PAL Table 3");
  const bad = await page.request.get(`${e2eState().baseURL}/api/experiments/${id}/paper-table?format=docx`);
  expect(bad.status()).toBe(400);

  // All metrics: paper names with one-line legends (the G-Score scale, what S-Score counts), charts with values.
  await page.getByRole("tab", { name: "All metrics" }).click();
  await expect(page.getByTestId("legend-requirement")).toContainText("an item's 1.5 points read 75");
  await expect(page.getByTestId("legend-solution")).toContainText("−16.67 is a mean of −1/3");
  const chart = page.getByTestId("charts-solution").getByRole("img", { name: "S-Score by method" });
  await expect(chart).toContainText("75.00 ± 25.00");
  await expect(
    page
      .getByTestId("results-pairwise")
      .locator('tr[data-pair="h2memory~memorybank"][data-dimension="preference"] [data-testid="wtl-mean"]'),
  ).toContainText("1.0 / 0.0 / 1.0");
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-metrics.png"), fullPage: false });
  // Costs apart.
  await page.getByRole("tab", { name: "Costs" }).click();
  await expect(page.getByTestId("cost-table")).toBeVisible();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-costs.png") });
  await expect(page.getByTestId("usage-unknown")).toHaveCount(0);

  // A reply whose usage was not believed (issue 30.1): the costs say so, beside the table.
  const w = new Database(e2eState().dbPath);
  try {
    w.prepare(
      `INSERT INTO llm_calls (job_id, purpose, role, config, endpoint, model, cache_hit, replicate, attempt, status, error, usage_unknown)
       SELECT id, 'answer', 'assistant', 'assistant', 'http://e/v1', 'm', 0, 0, 1, 'ok',
         'usage not believed: prompt_tokens -1000000000 is not a count; counted at its worst case against the spend cap', 1
       FROM jobs WHERE experiment_id = ? ORDER BY id LIMIT 1`,
    ).run(id);
  } finally {
    w.close();
  }
  await page.reload();
  await page.getByRole("tab", { name: "Costs" }).click();
  await expect(page.getByTestId("usage-unknown")).toContainText("1 request(s) with unknown usage");
  await expect(page.getByTestId("usage-unknown")).toContainText("counted each reply whose usage was not believed at its worst case");
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-costs-usage-unknown.png") });
});

test("Table 10 compared for a DeepSeek-V3.1 run; Table A2 beside a HiCUPID run's hit rates", async ({ page }) => {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  let deepseek: number;
  let hits: number;
  try {
    const ds = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
    deepseek = seedKnownExperiment(db, { name: "DeepSeek run (paper tables)", datasetId: ds });
    db.prepare("UPDATE experiments SET config = ? WHERE id = ?").run(
      JSON.stringify({ ...KNOWN_EXPERIMENT_CONFIG, models: { assistant: { model: "deepseek-v3.1" } } }),
      deepseek,
    );
    hits = seedHitRateExperiment(db, { name: "HiCUPID hit rates (paper tables)" });
  } finally {
    db.close();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments/${deepseek}`);
  const t10 = page.getByTestId("paper-table-mem-pal-table10");
  await expect(t10.locator('tbody[data-section="reported"]')).toContainText("Reported in Mem-PAL, Table 10");
  // H2Memory: G-Score 91.67 − 49.77, S-Score 75.00 − 40.40.
  await expect(t10.locator('tbody[data-section="difference"] tr[data-method="h2memory"]')).toHaveText("H2Memory+41.90+34.60");
  await expect(t10.locator('tbody[data-section="reference"]')).toHaveCount(0);
  await t10.scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-10-deepseek.png") });

  await page.goto(`${e2eState().baseURL}/experiments/${hits}`);
  const a2 = page.getByTestId("paper-table-hicupid-table-a2");
  await expect(a2.locator('tbody[data-section="run"] tr[data-method="bm25-k5"]')).toHaveText(
    "BM25, utterance, k = 575.0100.050.0100.081.3",
  );
  await expect(a2.locator('tbody[data-section="reported"]')).toContainText("Reported in HiCUPID, Table A2");
  await expect(a2.locator('tbody[data-section="reported"] tr')).toContainText(["BM25, utterance, k = 550.099.638.023.060.0"]);
  await expect(a2.locator('tbody[data-section="difference"] td[data-column="hitRate"]')).toHaveText("+21.3");
  await a2.scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-a2.png") });
  await page.getByRole("tab", { name: "All metrics" }).click();
  await expect(page.getByText("Hit: MI profile").first()).toBeVisible();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "paper-table-a2-metrics.png") });
});
