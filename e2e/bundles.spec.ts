import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { demoRunArgs } from "./pal-run-args";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { labPal } from "./lab-pal";
import { experimentReplies } from "../test/experiment-replies";

/**
 * Another lab's run comes in as a bundle: a run made in a database of its own (the same demo data) is
 * exported with `pal bundle export`, uploaded on the Experiments page by a researcher, and opens as an
 * imported experiment with its results and run card. The fake model (TEST DOUBLE) answers the other
 * lab's run only.
 */
let fake: FakeOpenAI;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-bundle-"));
const bundle = path.join(dir, "other-lab.palbundle");

const palIn = (db: string, args: string[]) => labPal(db, fake.baseURL, args);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  const db = path.join(dir, "other-lab.db");
  await palIn(db, ["demo"]);
  await palIn(db, demoRunArgs("vanilla,vanilla-log", "--json"));
  await palIn(db, ["bundle", "export", "1", "--out", bundle]);
});
test.afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a researcher imports another lab's bundle; the run opens marked as imported, with its run card", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByTestId("import-bundle");
  await form.locator("input[type=file]").setInputFiles(bundle);
  await expect(form.getByRole("status")).toContainText(/Imported as experiment \d+/);
  const id = /experiment (\d+)/.exec((await form.getByRole("status").textContent()) ?? "")?.[1];
  await page.screenshot({ path: path.join("test-results", "bundle-experiments-page.png") });
  await form.getByRole("link", { name: /experiment \d+/ }).click();
  await expect(page.getByTestId("imported")).toContainText("Imported from other-lab.palbundle (experiment 1 there");
  await expect(page.getByTestId("imported-status")).toHaveText("In the bundle it was done.");
  await page.screenshot({ path: path.join("test-results", "bundle-imported-experiment.png") });

  // Its bundle, built in the background and then downloaded as the file the build wrote.
  const bundleBox = page.getByTestId("bundle-download");
  await bundleBox.getByRole("button", { name: "Build bundle" }).click();
  const download = bundleBox.getByRole("link", { name: /Download bundle \(\d+\.\d MB\)/ });
  await expect(download).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: path.join("test-results", "bundle-built.png") });
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  const saved = path.join(dir, "downloaded.palbundle");
  await file.saveAs(saved);
  expect(fs.readFileSync(saved).subarray(0, 15).toString()).toBe("SQLite format 3");

  // Once more: the same run is not duplicated.
  await page.goto(`${e2eState().baseURL}/experiments`);
  await page.getByTestId("import-bundle").locator("input[type=file]").setInputFiles(bundle);
  await expect(page.getByTestId("import-bundle").getByRole("status")).toContainText(/This run is here already as experiment \d+/);

  // A file that is not a bundle: the reason, naming the file.
  const junk = path.join(dir, "notes.palbundle");
  fs.writeFileSync(junk, "just some notes, not a database");
  await page.getByTestId("import-bundle").locator("input[type=file]").setInputFiles(junk);
  await expect(page.getByTestId("import-bundle").getByRole("alert")).toContainText("notes.palbundle is not a SQLite file");
  await page.screenshot({ path: path.join("test-results", "bundle-import-refused.png") });

  await page.goto(`${e2eState().baseURL}/api/experiments/${id}/export?format=card-html&inline=1`);
  await expect(page.getByRole("heading", { name: /Run card: experiment/ })).toBeVisible();
  await expect(page.getByText("lab-judge").first()).toBeVisible();
  await page.screenshot({ path: path.join("test-results", "bundle-run-card.png"), fullPage: true });
});

test("a bundle whose run says it is running arrives paused: the page says what it was, and nothing runs", async ({ browser }) => {
  test.setTimeout(120_000);
  // The same run edited by its sender: marked running, one job's output changed (other content: a run of its own).
  const running = path.join(dir, "still-running.palbundle");
  fs.copyFileSync(bundle, running);
  const b = new Database(running);
  b.prepare("UPDATE experiments SET status = 'running'").run();
  b.prepare("UPDATE jobs SET status = 'queued', output = NULL WHERE id = (SELECT min(id) FROM jobs)").run();
  b.close();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByTestId("import-bundle");
  await form.locator("input[type=file]").setInputFiles(running);
  await expect(form.getByRole("status")).toContainText(/Imported as experiment \d+/);
  await form.getByRole("link", { name: /experiment \d+/ }).click();
  await expect(page.getByTestId("imported-status")).toContainText("In the bundle it was running; it arrived paused");
  await expect(page.getByTestId("status")).toHaveText(/paused/);
  await page.screenshot({ path: path.join("test-results", "bundle-imported-paused.png") });
});

test("an import under way can be cancelled: its process stops and nothing is imported", async ({ browser }) => {
  test.setTimeout(180_000);
  // The same run with a ledger grown to ~200,000 rows (valid ones): checking and copying them takes long enough to cancel.
  const big = path.join(dir, "big-lab.palbundle");
  fs.copyFileSync(bundle, big);
  const conn = new Database(big);
  const cols = (conn.prepare("PRAGMA table_info(llm_calls)").all() as Array<{ name: string }>)
    .map((c) => `"${c.name}"`)
    .filter((c) => c !== '"id"')
    .join(", ");
  while ((conn.prepare("SELECT count(*) FROM llm_calls").pluck().get() as number) < 200_000)
    conn.exec(`INSERT INTO llm_calls (${cols}) SELECT ${cols} FROM llm_calls`);
  conn.close();
  const experiments = () => {
    const db = new Database(e2eState().dbPath, { readonly: true });
    try {
      return db.prepare("SELECT count(*) FROM experiments").pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const before = experiments();

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByTestId("import-bundle");
  await form.locator("input[type=file]").setInputFiles(big);
  const cancel = form.getByRole("button", { name: "Cancel" });
  await expect(cancel).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: path.join("test-results", "bundle-import-cancel.png") });
  await cancel.click();
  await expect(form.getByRole("alert")).toContainText("cancelled; nothing was imported");
  expect(experiments()).toBe(before);
});
