import { spawn } from "node:child_process";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { demoRunArgs } from "./pal-run-args";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";

/**
 * Spending safety as a researcher meets it: `pal run` against an endpoint (this spec's TEST DOUBLE) whose
 * every reply is invalid pauses itself within 20 paid attempts and exits 3; the experiment's page says
 * why, in amber, with Resume enabled, and the list reads "paused".
 */
let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setResponder(() => ({ content: "Sorry, no JSON from me.", promptTokens: 50, completionTokens: 5 }));
});
test.afterAll(async () => {
  await fake.close();
});

test("a run whose replies are all invalid pauses itself; the page shows the reason and Resume", async ({ page }) => {
  test.setTimeout(120_000);
  const env = {
    ...process.env,
    PAL_DB: e2eState().dbPath,
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "e2e-fake-key",
    PAL_MODEL_ASSISTANT: "e2e-always-invalid",
    PAL_MODEL_JUDGE: "e2e-judge",
    PAL_LLM_RETRIES: "0",
  };
  // Not spawnSync: the test double answers from this process, whose event loop must keep running.
  const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("node", ["bin/pal.mjs", ...demoRunArgs("vanilla", "--json")], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
  expect(run.status, run.stderr).toBe(3);
  expect(run.stderr).toContain("paused");
  const out = JSON.parse(run.stdout);
  expect(fake.chatRequests.length).toBe(20);
  expect(out.ledger.requests).toBe(20);

  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments/${out.experiment}`);
  await expect(page.getByTestId("status")).toHaveText("paused");
  await expect(page.getByTestId("pause-reason")).toContainText("the first 20 attempts all failed");
  await expect(page.getByRole("button", { name: "Resume" })).toBeEnabled();
  await page.goto(`${e2eState().baseURL}/experiments`);
  const row = page
    .getByTestId("experiment-list")
    .getByRole("row")
    .filter({ hasText: String(out.experiment) })
    .first();
  await expect(row.getByTestId("run-status")).toHaveText("paused");
});
