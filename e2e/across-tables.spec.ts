import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { seedKnownExperiment } from "../test/known-experiment";

/**
 * One paper table across experiments (issue 44.6): a researcher picks two experiments of the same tasks on
 * the Experiments page's "Table across experiments", reads one block per experiment labelled by the
 * assistant model each run's ledger names (not today's setting, e2e-fake-assistant), downloads it as
 * `pal table --experiments` prints it, and a pick of different tasks is refused on the page.
 * Set PAPER_SHOTS=<dir> to save 1440x900 screenshots.
 */
const SHOTS = process.env.PAPER_SHOTS;

test("a researcher sets two experiments (two assistant models) in one table and downloads it", async ({ page }) => {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  let a: number, b: number, other: number;
  try {
    const ds = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
    a = seedKnownExperiment(db, { name: "Across: Qwen", datasetId: ds });
    b = seedKnownExperiment(db, { name: "Across: DeepSeek", datasetId: ds });
    // The endpoint served b's assistant as DeepSeek-V3.1 (its config asks for Qwen-Max): the ledger is what ran.
    const ins = db.prepare(
      "INSERT INTO llm_calls (experiment_id, purpose, role, config, endpoint, model, status, served_model, created_at) VALUES (?, 'answer', 'assistant', 'assistant', 'default', 'qwen-max-0428', 'ok', 'deepseek-v3.1', ?)",
    );
    ins.run(b, Date.now());
    other = seedKnownExperiment(db, { name: "Across: dialogue only", datasetId: ds });
    const cfg = JSON.parse((db.prepare("select config from experiments where id = ?").get(other) as { config: string }).config);
    db.prepare("UPDATE experiments SET config = ? WHERE id = ?").run(JSON.stringify({ ...cfg, tasks: ["dialogue"] }), other);
    db.prepare("DELETE FROM jobs WHERE experiment_id = ? AND task != 'dialogue'").run(other);
  } finally {
    db.close();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  await page.getByTestId("across-link").click();
  await expect(page).toHaveURL(/\/experiments\/tables$/);
  await expect(page.getByRole("heading", { name: "Table across experiments" })).toBeVisible();
  // The picker groups experiments by their tasks: the dialogue-only one is in a group of its own.
  const picker = page.getByTestId("across-picker");
  await expect(picker.locator("fieldset", { has: page.getByTestId(`across-pick-${other}`) })).toContainText("Tasks: dialogue");
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, "across-picker.png") });
  }
  await page.getByTestId(`across-pick-${a}`).check();
  await page.getByTestId(`across-pick-${b}`).check();
  await page.getByTestId("across-show").click();
  await expect(page).toHaveURL(new RegExp(`ids=${b}&ids=${a}`)); // the list's order, newest first; the table's is oldest first

  const t10 = page.getByTestId("paper-table-mem-pal-table10");
  await expect(t10).toBeVisible();
  const blocks = t10.locator('tbody[data-section="run"]');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0)).toContainText(`Experiment ${a}: qwen-max-0428`);
  await expect(blocks.nth(1)).toContainText(`Experiment ${b}: deepseek-v3.1`);
  await expect(page.getByTestId("across-tables")).not.toContainText("e2e-fake-assistant");
  // Each block ranked on its own: H2Memory's G-Score bold in both, MemoryBank's underlined.
  for (const i of [0, 1]) {
    await expect(blocks.nth(i).locator('tr[data-method="h2memory"] td[data-column="requirement.gscore"] b')).toHaveText("91.67 ± 14.43");
    await expect(blocks.nth(i).locator('tr[data-method="memorybank"] td[data-column="requirement.gscore"]')).toHaveAttribute(
      "data-rank",
      "2",
    );
  }
  // The published DeepSeek rows once, for reference, and no difference rows.
  await expect(t10.locator('tbody[data-section="reference"]')).toHaveCount(1);
  await expect(t10.locator('tbody[data-section="difference"]')).toHaveCount(0);
  await expect(page.getByTestId("paper-table-mem-pal-table2").locator('tbody[data-section="run"]')).toHaveCount(2);
  if (SHOTS) {
    await t10.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, "across-table.png") });
  }

  // The download is what `pal table --experiments` writes.
  const [dl] = await Promise.all([page.waitForEvent("download"), page.getByTestId("across-download-csv-mem-pal-table10").click()]);
  expect(dl.suggestedFilename()).toBe(`experiments-${a}-${b}-mem-pal-table10.csv`);
  const csv = fs.readFileSync((await dl.path())!, "utf8");
  expect(csv).toContain(`mem-pal-table10,Experiment ${b}: deepseek-v3.1,,h2memory,H2Memory,3,Requirement Restatement,G-Score,91.6667,`);

  // These runs only: the published rows leave.
  await page.getByTestId("across-run-only").check();
  await page.getByTestId("across-show").click();
  await expect(page).toHaveURL(/rows=run/);
  await expect(page.getByTestId("paper-table-mem-pal-table10").locator('tbody[data-section="reference"]')).toHaveCount(0);

  // Experiments of different tasks share no Mem-PAL Table 2: the page says which and why, the picker stays.
  await page.getByTestId("across-run-only").uncheck();
  await page.getByTestId(`across-pick-${b}`).uncheck();
  await page.getByTestId(`across-pick-${other}`).check();
  await page.getByTestId("across-show").click();
  await expect(page.getByTestId("paper-table-mem-pal-table3")).toBeVisible();
  await expect(page.getByTestId("paper-table-mem-pal-table2")).toHaveCount(0);
  await page.goto(`${e2eState().baseURL}/experiments/tables?ids=${a}`);
  await expect(page.getByTestId("across-error")).toHaveText("experiments: give 2 to 8 distinct experiment ids (got 1)");
  await expect(page.getByTestId("across-picker")).toBeVisible();
});
