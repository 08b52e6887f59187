import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { chooseUsers } from "./experiment-form";
import { apiAs } from "./api-client";

/**
 * Issue 14, item 2, through the real server: the estimate shows the launch against the limits and
 * blocks Launch over one; Admin → Settings raises a limit (and refuses a bad value with its reason);
 * the API refuses an over-limit launch (400 naming the limit), an oversized body (413) and the launch
 * past the per-minute limit (429); a launch answers at once as "preparing" and the jobs follow.
 * Uses the solution task (assistant only: the global setup's fake model) and the admin account, so
 * the researcher's experiments spec is not held back by these launches.
 */

test("estimate shows N jobs of max M; over a limit Launch is blocked until an admin raises it", async ({ page }) => {
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  await form.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
  await form.getByLabel("Solution proposal (Task 2: generation + selection)").check();
  await chooseUsers(form, ["0000"]);
  await form.getByLabel("Repeats").fill("7");
  // The judge role is on no endpoint marked as serving the Batch API: ticking the judge-batch box says so (still allowed).
  await form.getByTestId("judge-batch").check();
  await expect(form.getByTestId("batch-api-note")).toHaveText(
    "The judge's endpoint is not marked as supporting the Batch API (Admin → Models).",
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await form.screenshot({ path: test.info().outputPath("batchflag-experiment-note.png") });
  await form.getByTestId("judge-batch").uncheck();
  await expect(form.getByTestId("batch-api-note")).toHaveCount(0);
  await form.getByRole("button", { name: "Estimate" }).click();
  const limits = form.getByTestId("estimate-limits");
  await expect(limits).toContainText(/jobs of max 250,000 · 1 methods of max 20 · 7 repeats of max 5/);
  await expect(limits.getByRole("alert")).toContainText("config.repeats: 7 repeats, over the limit of 5 repeats per launch");
  await expect(form.getByRole("button", { name: "Launch" })).toBeDisabled();
  await page.setViewportSize({ width: 1440, height: 900 });
  await form.screenshot({ path: test.info().outputPath("limits-estimate-over.png") });

  // Admin → Settings: a bad value is refused with its reason; a good one is saved.
  await page.goto(`${e2eState().baseURL}/admin/settings`);
  const settings = page.getByRole("form", { name: "Experiment limits" });
  await settings.getByLabel("repeats per launch").fill("25");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expect(settings.getByRole("alert")).toHaveText("maxRepeats: at most 20");
  await settings.getByLabel("repeats per launch").fill("8");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expect(settings.getByRole("status")).toHaveText("Experiment limits saved.");
  await page.screenshot({ path: test.info().outputPath("limits-settings.png"), fullPage: true });

  await page.goto(`${e2eState().baseURL}/experiments`);
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  await form.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
  await form.getByLabel("Solution proposal (Task 2: generation + selection)").check();
  await chooseUsers(form, ["0000"]);
  await form.getByLabel("Repeats").fill("7");
  await form.getByRole("button", { name: "Estimate" }).click();
  await expect(form.getByTestId("estimate-limits")).toContainText("7 repeats of max 8");
  await expect(form.getByTestId("estimate-limits").getByRole("alert")).toHaveCount(0);
  await expect(form.getByRole("button", { name: "Launch" })).toBeEnabled();

  // Back to the default for the other specs.
  await page.goto(`${e2eState().baseURL}/admin/settings`);
  await settings.getByLabel("repeats per launch").fill("5");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expect(settings.getByRole("status")).toHaveText("Experiment limits saved.");
});

test("the launch API: 400 over a limit, 413 over 64 KB, 429 past the launches per minute; a launch is prepared in the background", async () => {
  test.setTimeout(120_000);
  const admin = await apiAs(account("admin"));
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  const datasetId = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
  db.close();
  const solution = (extra: Record<string, unknown> = {}) => ({
    tasks: ["solution"],
    users: ["0000"],
    methods: [{ name: "vanilla" }],
    ...extra,
  });

  const many = Array.from({ length: 21 }, (_, i) => ({ name: "vanilla", label: `v${i}` }));
  const over = await admin.post("/api/experiments", { data: { datasetId, config: solution({ methods: many }) } });
  expect(over.status()).toBe(400);
  expect(await over.json()).toMatchObject({
    code: "limit_exceeded",
    error: expect.stringContaining("config.methods: 21 methods, over the limit of 20 methods per launch"),
  });

  // The probe's 77 KB config: 2,000 method labels × 20 repeats.
  const huge = Array.from({ length: 2000 }, (_, i) => ({ name: "vanilla", label: `method-label-${i}` }));
  const big = await admin.post("/api/experiments", { data: { datasetId, config: solution({ methods: huge, repeats: 20 }) } });
  expect(big.status()).toBe(413);

  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await admin.post("/api/experiments", { data: { datasetId, name: `limit ${i}`, config: solution() } });
    expect(r.status(), await r.text()).toBe(201);
    const { experiment } = await r.json();
    expect(experiment.status).toBe("preparing");
    ids.push(experiment.id);
  }
  const eleventh = await admin.post("/api/experiments", { data: { datasetId, config: solution() } });
  expect(eleventh.status()).toBe(429);
  expect((await eleventh.json()).error).toMatch(/^launch limit reached: at most 10 launches per user per minute; try again in \d+ s/);

  // The background preparer creates the jobs; the experiment leaves "preparing" with all of them.
  await expect
    .poll(async () => (await (await admin.get(`/api/experiments/${ids[0]}?only=progress`)).json()).progress.status, { timeout: 30_000 })
    .not.toBe("preparing");
  const p = (await (await admin.get(`/api/experiments/${ids[0]}?only=progress`)).json()).progress;
  expect(p.total).toBe(p.planned);
  for (const id of ids) await admin.post(`/api/experiments/${id}`, { data: { action: "cancel" } });
});
