import { spawnSync } from "node:child_process";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { chooseUsers } from "./experiment-form";

/**
 * Protocol presets in the browser: the form opens on the preset of the chosen data set's kind (Custom one
 * click away) with every setting and its source; a subset of the preset's methods, tasks and users is
 * picked with checkboxes and only those changes are sent; the estimate names methods by their display
 * names and counts the ablations' shared builds once; the experiment page lists the changes in words.
 */
test("the form opens on the data set's preset; checkboxes pick a subset; the experiment page lists the changes in words", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments`);
  const form = page.getByRole("form", { name: "New experiment" });
  const preset = form.getByTestId("preset");
  // The first data set is a PAL-Set: the form opens on Mem-PAL's protocol, every method ticked.
  await expect(preset).toHaveValue("mem-pal");
  const methods = form.getByTestId("method-choices");
  await expect(methods.getByRole("checkbox")).toHaveCount(12);
  await expect(methods.getByRole("checkbox", { checked: true })).toHaveCount(12);
  await expect(methods).toContainText("H2Memory w/o M_G");
  await expect(methods).not.toContainText("vanilla-log");
  await expect(form.getByTestId("reference")).toHaveValue("h2memory");
  // Another kind of data set: its own preset; back again: Mem-PAL's.
  await form.getByTestId("dataset").selectOption({ label: "HiCUPID demo" });
  await expect(preset).toHaveValue("hicupid");
  await expect(methods.getByRole("checkbox")).toHaveCount(4);
  await expect(form.getByTestId("reference")).toHaveValue("0-shot");
  await form.screenshot({ path: test.info().outputPath("protocol-form-hicupid.png") });
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  await expect(preset).toHaveValue("mem-pal");
  const settings = form.getByTestId("preset-settings");
  await settings.locator("summary").click();
  await expect(settings).toContainText("paraphrase-multilingual-mpnet-base-v2");
  await expect(settings.getByRole("row", { name: /methods\.h2memory\.options\.clusters/ })).toContainText("Appendix C");

  // A subset: three methods, one task, one user, one run.
  const keep = ["H2Memory", "H2Memory w/o M_G", "Vanilla"];
  for (const box of await methods.getByRole("checkbox").all()) {
    const label = (await box.locator("xpath=..").innerText()).trim();
    if (!keep.includes(label)) await box.uncheck();
  }
  await form.getByLabel("Solution proposal (Task 2: generation + selection)").uncheck();
  await form.getByLabel("Multi-turn dialogue (Task 3, pairwise FairEval)").uncheck();
  await chooseUsers(form, ["0000"]);
  await form.getByLabel("Repeats").fill("1");
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/experiments") && r.method() === "POST");
  await form.getByRole("button", { name: "Estimate" }).click();
  // Only the changes go to the server, which merges them into the preset.
  expect((await sent).postDataJSON().config).toEqual({
    preset: "mem-pal",
    methods: [{ name: "vanilla" }, { name: "h2memory" }, { name: "h2memory-no-graph" }],
    tasks: ["requirement"],
    users: ["0000"],
    repeats: 1,
  });
  const estimate = form.getByTestId("estimate");
  await expect(estimate).toBeVisible({ timeout: 60_000 });
  await expect(estimate.getByRole("row").filter({ hasText: "H2Memory w/o M_G" }).first()).toContainText("requirement");
  // w/o M_G builds exactly what H2Memory builds: its calls are counted once, under H2Memory.
  const shared = estimate.getByTestId("estimate-build").filter({ hasText: "H2Memory w/o M_G" });
  await expect(shared).toContainText("calls shared with h2memory");
  await form.screenshot({ path: test.info().outputPath("protocol-form-subset.png") });

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
      "--method",
      "vanilla,h2memory,h2memory-no-graph",
      "--task",
      "requirement",
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
  await expect(page.getByTestId("preset")).toContainText("Reproduce Mem-PAL · 4 changes");
  const changes = page.getByTestId("preset-changes");
  await expect(changes.getByRole("listitem")).toHaveText([
    "methods: Vanilla, H2Memory, H2Memory w/o M_G (preset: 12 methods)",
    "tasks: requirement (preset: requirement, solution, dialogue)",
    "users: 0000 (preset: all)",
    "repeats: 1 (preset: 3)",
  ]);
  await expect(page.getByTestId("settings")).not.toContainText("→");
  await page.getByTestId("settings").screenshot({ path: test.info().outputPath("protocol-experiment-changes.png") });
  await page.goto(`${e2eState().baseURL}/experiments/protocol`);
  await expect(page.getByTestId("protocol-hicupid")).toContainText("HiCUPID Figure A15");
  await expect(page.getByTestId("protocol-notes")).toContainText("What to expect to differ");
});
