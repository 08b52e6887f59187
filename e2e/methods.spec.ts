import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { startMethodServer } from "../test/method-server";
import { apiAs } from "./api-client";

/**
 * Issue 41, Admin → Methods through the real server: the admin registers an external method (a real HTTP
 * method server started here), checks it (it conforms), sees a bad registration refused with its reason,
 * finds the method among the experiment form's choices, resets its memory of one user, and removes it.
 */
test("the admin registers, checks and removes an external method; an experiment runs it in the app's worker", async ({ page }) => {
  test.setTimeout(150_000);
  const svc = await startMethodServer();
  try {
    await login(page, account("admin"));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${e2eState().baseURL}/admin/methods`);
    const form = page.getByRole("form", { name: "Register a method" });
    await form.getByLabel("Method name").fill("labrag");
    await form.getByLabel("Label in results", { exact: true }).fill("Lab-RAG");
    await form.getByLabel("Service URL", { exact: true }).fill(svc.url);
    await form.getByLabel("Headers", { exact: true }).fill("X-Lab-Key: e2e-secret");
    await form.getByRole("button", { name: "Register" }).click();
    await expect(form.getByRole("status")).toHaveText("Registered labrag.");
    const table = page.getByRole("region", { name: "Registered methods" });
    await expect(table.getByRole("row", { name: /labrag/ })).toContainText("X-Lab-Key (saved encrypted)");
    await expect(page.locator("body")).not.toContainText("e2e-secret");

    await form.getByLabel("Method name").fill("vanilla");
    await form.getByLabel("Service URL", { exact: true }).fill(svc.url);
    await form.getByRole("button", { name: "Register" }).click();
    await expect(form.getByRole("alert")).toContainText("built-in method");

    await table.getByRole("button", { name: "Check" }).click();
    await expect(page.getByTestId("check-result")).toContainText("Conforms · test-method 1");
    expect(svc.requests.some((r) => r.path === "/respond" && r.headers["x-lab-key"] === "e2e-secret")).toBe(true);
    await page.screenshot({ path: test.info().outputPath("admin-methods.png"), fullPage: true });

    // The experiment form offers it in a custom run (a preset runs the paper's methods).
    await page.goto(`${e2eState().baseURL}/experiments`);
    const expForm = page.getByRole("form", { name: "New experiment" });
    await expForm.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
    await expForm.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
    await expect(expForm.getByLabel("Lab-RAG", { exact: true }).first()).toBeVisible();

    // Launched on the server, its jobs run by the app's worker: the method's calls go through the server's endpoint.
    const admin = await apiAs(account("admin"));
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(e2eState().dbPath, { readonly: true });
    try {
      const datasetId = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
      const config = { tasks: ["solution"], users: ["0000"], methods: [{ name: "labrag" }, { name: "vanilla" }] };
      // Other specs running beside this one may have used this minute's launches (the per-user launch limit):
      // wait as the 429 says, then launch.
      let launched = await admin.post("/api/experiments", { data: { datasetId, name: "external method e2e", config } });
      for (let i = 0; i < 3 && launched.status() === 429; i++) {
        const wait = Number(/try again in (\d+) s/.exec(await launched.text())?.[1] ?? 10);
        await new Promise((r) => setTimeout(r, (wait + 1) * 1000));
        launched = await admin.post("/api/experiments", { data: { datasetId, name: "external method e2e", config } });
      }
      expect(launched.ok(), await launched.text()).toBe(true);
      const id = Number((await launched.json()).experiment.id);
      const jobs = () =>
        db.prepare("select method, status, error from jobs where experiment_id = ?").all(id) as Array<{ method: string; status: string }>;
      await expect
        .poll(() => jobs().length > 0 && jobs().every((j) => j.status === "done" || j.status === "failed"), { timeout: 90_000 })
        .toBe(true);
      expect(jobs().filter((j) => j.status !== "done")).toEqual([]);
      expect(new Set(jobs().map((j) => j.method))).toEqual(new Set(["Lab-RAG", "vanilla"]));
      const calls = db
        .prepare(
          "select count(*) as n from llm_calls c join jobs j on j.id = c.job_id where j.experiment_id = ? and c.purpose = 'labrag.llm'",
        )
        .get(id) as { n: number };
      expect(calls.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }

    await page.goto(`${e2eState().baseURL}/admin/methods`);
    // Reset the method's memory of user 0000 (built by that run): the service forgets its namespace.
    const reset = page.getByRole("form", { name: "Reset a method's memory" });
    await reset.getByLabel("Method to reset").selectOption("labrag");
    await reset.getByLabel("User to reset").fill("0000");
    await reset.getByRole("button", { name: "Reset memory" }).click();
    await expect(reset.getByTestId("reset-result")).toContainText(/reset\s+user 0000, memory version \d+ \(v\d+\)/);
    expect(svc.requests.some((r) => r.path === "/reset" && r.body?.user === "0000")).toBe(true);
    await page.screenshot({ path: test.info().outputPath("admin-methods-reset.png"), fullPage: true });
    await page.getByRole("button", { name: "Remove labrag" }).click();
    await expect(page.getByRole("region", { name: "Registered methods" })).toContainText("No external method yet");
  } finally {
    await svc.close();
  }
});
