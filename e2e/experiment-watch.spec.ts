import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { experimentReplies } from "../test/experiment-replies";

/**
 * The experiment page while a run is watched: the progress panel polls the small progress answer and
 * updates in place (no reload, no server re-render of the page every 2 s), the Items table pages and
 * filters from the server meanwhile, and the results appear when the run ends. The judge role points at
 * this spec's fake server (TEST DOUBLE) with a slow reply, so the run lasts long enough to watch.
 * Set WATCH_SHOTS=<dir> to keep the 1440x900 screenshot.
 */
let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ latencyMs: 900 });
  fake.setResponder(experimentReplies());
});
test.afterAll(async () => {
  await fake.close();
});

async function shot(page: Page, name: string) {
  const dir = process.env.WATCH_SHOTS ?? test.info().outputDir;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `watch-${name}.png`) });
}

test("a watched run updates its progress in place and the page stays usable", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/models`);
  const card = page.getByTestId("model-judge");
  const settings = card.getByRole("form", { name: "Settings of judge" });
  await settings.getByLabel(/Base URL/).fill(fake.baseURL);
  await settings.getByLabel("Model").fill("e2e-watch-judge");
  await settings.getByLabel(/API key/).fill("sk-e2e");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(card.getByText("Saved judge.")).toBeVisible();

  const researcher = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(researcher, account("researcher"));
  await researcher.goto(`${e2eState().baseURL}/experiments`);
  const form = researcher.getByRole("form", { name: "New experiment" });
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  // A custom run (the form opens on the data set's preset): methods are listed by their display names.
  await form.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
  await form.getByLabel("Vanilla + logs", { exact: true }).check();
  await form.getByLabel("Requirement restatement (Task 1)").check();
  // Five runs: enough jobs (each waiting ~1 s for its judge) to watch for a while.
  await form.getByLabel("Repeats").fill("5");
  await form.getByRole("button", { name: "Estimate" }).click();
  await expect(form.getByTestId("estimate")).toContainText("total");
  await form.getByRole("button", { name: "Launch" }).click();
  await researcher.waitForURL(/\/experiments\/\d+$/);
  const url = researcher.url();
  const api = url.replace("/experiments/", "/api/experiments/");

  // From here on: every progress poll, and any re-render of the page by the server (an RSC request).
  const polls: number[] = [];
  const rerenders: string[] = [];
  researcher.on("request", (r) => {
    if (r.url().includes("?only=progress")) polls.push(Date.now());
    // The page itself rendered again (links' prefetches of item pages are other paths).
    else if ((r.headers()["rsc"] === "1" || r.url().includes("_rsc=")) && new URL(r.url()).pathname === new URL(url).pathname)
      rerenders.push(r.url());
  });
  await researcher.evaluate(() => ((window as unknown as { watched: number }).watched = 1));
  const counts = researcher.getByTestId("counts");
  await expect(researcher.getByTestId("status")).toHaveText(/running|queued/, { timeout: 20_000 });
  const first = await counts.textContent();
  // The counts move without a reload.
  await expect(counts).not.toHaveText(first!, { timeout: 20_000 });
  const watchedFor = Date.now();

  // Meanwhile the Items table answers from the server: filter by status, then back.
  await researcher.getByLabel("Filter by status").selectOption("done");
  await expect(researcher.getByTestId("item-count")).toHaveText(/^\d+ of \d+ items$/);
  const doneRows = researcher.getByTestId("job-list").locator("tbody tr");
  await expect(doneRows.first()).toHaveAttribute("data-status", "done");
  await shot(researcher, "running");

  // Six more seconds of watching: polls every 2 s, and no re-render of the page (those come every 30 s or at the end).
  await researcher.waitForTimeout(6000);
  const stillRunning = (await researcher.getByTestId("status").textContent()) === "running";
  // Polled every 2 s while it runs (a run that ended meanwhile, sped up by another spec's judge, stops polling).
  if (stillRunning) expect(polls.filter((t) => t >= watchedFor).length).toBeGreaterThanOrEqual(2);
  if (stillRunning) expect(rerenders).toEqual([]);
  expect(await researcher.evaluate(() => (window as unknown as { watched?: number }).watched)).toBe(1);
  expect(await researcher.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);

  // The progress answer is progress only; a bad items query is refused naming its field.
  const polled = await (await researcher.request.get(`${api}?only=progress`)).json();
  expect(Object.keys(polled)).toEqual(["progress"]);
  expect(polled.progress.total).toBeGreaterThan(0);
  const bad = await researcher.request.get(`${api}/items?status=bogus`);
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatch(/^status: /);

  // At the end the page shows the results without a reload.
  await expect(researcher.getByTestId("status")).toHaveText("done", { timeout: 120_000 });
  // The results open on the paper tables; the per-task table is under "All metrics".
  await researcher.getByRole("tab", { name: "All metrics" }).click({ timeout: 15_000 });
  await expect(researcher.getByTestId("results-requirement")).toBeVisible({ timeout: 15_000 });
  expect(await researcher.evaluate(() => (window as unknown as { watched?: number }).watched)).toBe(1);
  await researcher.getByLabel("Filter by status").selectOption("");
  await expect(researcher.getByTestId("item-count")).toHaveText(new RegExp(`^${polled.progress.total} of ${polled.progress.total} items$`));
  await shot(researcher, "done");
});
