import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { demoRunArgs } from "./pal-run-args";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { labPal } from "./lab-pal";
import { experimentReplies } from "../test/experiment-replies";

/**
 * Issue 44, item 5: an imported run is verified from its page (Verify runs `pal bundle verify ID` in the
 * background: its progress, then a badge kept on the run, shown again after a reload and in the run card;
 * a run that no longer matches its replies reads "M of N differ" with the jobs listed), and a bundle is
 * built "with data" on the web and carries the data set's rows. The fake model (TEST DOUBLE) answers the
 * other lab's run only; the verify itself sends nothing.
 */
let fake: FakeOpenAI;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-verify-"));
const bundle = path.join(dir, "colleague.palbundle");
const shots = (name: string) => path.join("test-results", name);

const palIn = (db: string, args: string[]) => labPal(db, fake.baseURL, args);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  const db = path.join(dir, "colleague.db");
  await palIn(db, ["demo"]);
  await palIn(db, demoRunArgs("vanilla,vanilla-log", "--name", "colleague's run", "--json"));
  await palIn(db, ["bundle", "export", "1", "--out", bundle]);
});
test.afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function importOnWeb(page: Page): Promise<string> {
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByTestId("import-bundle");
  await form.locator("input[type=file]").setInputFiles(bundle);
  await expect(form.getByRole("status")).toContainText(/(Imported as|This run is here already as) experiment \d+/, { timeout: 60_000 });
  return /experiment (\d+)/.exec((await form.getByRole("status").textContent()) ?? "")![1];
}

test("Verify on an imported run: progress, then a badge kept on the run; a changed run reads M of N differ", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  const id = await importOnWeb(page);
  await page.goto(`${e2eState().baseURL}/experiments/${id}`);
  const verify = page.getByTestId("verify");
  await expect(verify.getByTestId("verify-badge")).toHaveCount(0);
  await verify.getByRole("button", { name: "Verify", exact: true }).click();
  // The task answers at once (it runs in a process of its own): progress shows while it runs.
  await expect(verify.getByTestId("verify-progress")).toContainText("Verifying…");
  await expect(verify.getByRole("progressbar", { name: "Verify progress" })).toBeVisible();
  await page.screenshot({ path: shots("bundle-verify-progress.png") });
  const badge = verify.getByTestId("verify-badge");
  const day = new Date().toISOString().slice(0, 10);
  await expect(badge).toHaveText(new RegExp(`^✓ verified on ${day}, (\\d+) of \\1 identical$`), { timeout: 90_000 });
  await expect(verify.getByTestId("verify-progress")).toHaveCount(0);
  await page.screenshot({ path: shots("bundle-verify-badge.png") });

  // Kept on the run: after a reload, and in its run card.
  await page.reload();
  await expect(page.getByTestId("verify-badge")).toHaveText(new RegExp(`verified on ${day}, (\\d+) of \\1 identical`));
  await page.goto(`${e2eState().baseURL}/api/experiments/${id}/export?format=card-html&inline=1`);
  await expect(page.getByText(new RegExp(`verified on ${day}, (\\d+) of \\1 identical`))).toBeVisible();

  // The run's stored output changed after import (one job): the replay gives the bundled reply, so it differs.
  const conn = new Database(e2eState().dbPath);
  const job = conn.prepare("SELECT min(id) FROM jobs WHERE experiment_id = ? AND status = 'done'").pluck().get(Number(id)) as number;
  conn.prepare("UPDATE jobs SET output = json_object('text', 'edited here') WHERE id = ?").run(job);
  conn.close();
  await page.goto(`${e2eState().baseURL}/experiments/${id}`);
  await page.getByTestId("verify").getByRole("button", { name: "Verify again" }).click();
  await expect(page.getByTestId("verify-badge")).toHaveText(new RegExp(`^✗ verified on ${day}: 1 of \\d+ differ$`), { timeout: 90_000 });
  const list = page.getByTestId("verify-differences");
  await list.getByText("What differed").click();
  await expect(list).toContainText(`job ${job} (`);
  await expect(list).toContainText("its output differs");
  await page.screenshot({ path: shots("bundle-verify-differ.png") });

  // On a phone: the badge and the list read in one column.
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await login(phone, account("researcher"));
  await phone.goto(`${e2eState().baseURL}/experiments/${id}`);
  await expect(phone.getByTestId("verify-badge")).toBeVisible();
  await phone.getByTestId("verify").scrollIntoViewIfNeeded();
  await phone.screenshot({ path: shots("bundle-verify-badge-390.png") });
  await phone.getByTestId("verify").getByRole("button", { name: "Verify again" }).click();
  await expect(phone.getByTestId("verify-progress")).toContainText("Verifying…");
  await phone.screenshot({ path: shots("bundle-verify-progress-390.png") });
  await expect(phone.getByTestId("verify-badge")).toHaveText(/1 of \d+ differ$/, { timeout: 90_000 });
  await expect(phone.getByTestId("verify-progress")).toHaveCount(0);
});

test("Build bundle with 'include data': the downloaded bundle carries the data set's rows", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  const id = await importOnWeb(page);
  await page.goto(`${e2eState().baseURL}/experiments/${id}`);
  const box = page.getByTestId("bundle-download");
  await box.getByLabel("include data").check();
  await box.getByRole("button", { name: "Build bundle with data" }).click();
  const download = box.getByRole("link", { name: /Download bundle with data \(\d+\.\d MB\)/ });
  await expect(download).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: shots("bundle-build-with-data.png") });
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  const saved = path.join(dir, "with-data.palbundle");
  await file.saveAs(saved);
  const b = new Database(saved, { readonly: true });
  try {
    expect(b.prepare("SELECT value FROM pal_bundle WHERE key = 'withData'").pluck().get()).toBe("true");
    // The rows of the user the run read (0000): its profile and its sessions.
    expect(b.prepare("SELECT user_key FROM pal_users").pluck().all()).toEqual(["0000"]);
    expect(b.prepare("SELECT count(*) FROM pal_samples").pluck().get()).toBeGreaterThan(0);
  } finally {
    b.close();
  }
  // Without the box: the plain bundle, built apart.
  await box.getByLabel("include data").uncheck();
  await expect(box.getByRole("button", { name: "Build bundle", exact: true })).toBeVisible();

  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await login(phone, account("researcher"));
  await phone.goto(`${e2eState().baseURL}/experiments/${id}`);
  await phone.getByTestId("bundle-download").getByLabel("include data").check();
  await phone.screenshot({ path: shots("bundle-build-with-data-390.png") });
});
