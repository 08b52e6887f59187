import { spawnSync } from "node:child_process";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";

/**
 * Protocol presets in the browser: "Reproduce Mem-PAL" fills every setting with its source, the estimate
 * runs on the PAL-Set demo, a launch with two overrides shows the preset and both overrides on the
 * experiment page, and the protocol notes page lists both presets.
 */
test("a preset shows every setting with its source; the experiment page lists the preset and each override", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByTestId("preset").selectOption({ label: "Reproduce Mem-PAL" });
  await form.getByLabel("Repeats").fill("1");
  await form.getByTestId("users").fill("0000");
  const settings = form.getByTestId("preset-settings");
  await expect(settings).toContainText("paraphrase-multilingual-mpnet-base-v2");
  await expect(settings.getByRole("row", { name: /methods\.h2memory\.options\.clusters/ })).toContainText("Appendix C");
  await expect(form.getByTestId("dataset")).toHaveValue(/\d+/);
  await form.getByRole("button", { name: "Estimate" }).click();
  await expect(form.getByTestId("estimate")).toBeVisible({ timeout: 60_000 });
  // A launch needs the judge and user-simulator roles, which other specs point at their own test doubles
  // (global settings): the experiment is made with the CLI instead, with the roles in its environment (a
  // dead endpoint and a spend cap of one call, so it stops at once). The refusal of a launch with a
  // missing role is tested in lib/experiments/presets.test.ts and cli/preset.test.ts.
  const run = spawnSync(
    "node",
    [
      "bin/pal.mjs",
      "run",
      "--preset",
      "mem-pal",
      "--dataset",
      "PAL-Set demo (en)",
      "--users",
      "0000",
      "--repeats",
      "1",
      "--max-calls",
      "1",
      "--json",
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        PAL_DB: e2eState().dbPath,
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        OPENAI_API_KEY: "sk-e2e",
        PAL_MODEL_ASSISTANT: "e2e-assistant",
        PAL_MODEL_USER_SIMULATOR: "e2e-user-simulator",
        PAL_MODEL_JUDGE: "e2e-judge",
        PAL_MODEL_EMBEDDING: "e2e-embedding",
        PAL_LLM_RETRIES: "0",
      },
    },
  );
  const created = /experiment (\d+) created/.exec(run.stderr)?.[1];
  expect(created, run.stderr).toBeTruthy();
  await page.goto(`${e2eState().baseURL}/experiments/${created}`);
  await expect(page.getByTestId("preset")).toContainText("Reproduce Mem-PAL");
  const overrides = page.getByTestId("preset-overrides");
  await expect(overrides.getByRole("row", { name: /^repeats/ })).toContainText("3");
  await expect(overrides.getByRole("row", { name: /^users/ })).toContainText('["0000"]');
  await page.goto(`${e2eState().baseURL}/experiments/protocol`);
  await expect(page.getByTestId("protocol-hicupid")).toContainText("HiCUPID Figure A15");
  await expect(page.getByTestId("protocol-notes")).toContainText("What to expect to differ");
});
