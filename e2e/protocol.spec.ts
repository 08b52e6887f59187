import { test, expect } from "@playwright/test";
import { e2eState, login, account } from "./state";

/**
 * Protocol presets in the browser: "Reproduce Mem-PAL" fills every setting with its source, the estimate
 * runs on the PAL-Set demo, a launch with two overrides shows the preset and both overrides on the
 * experiment page, and the protocol notes page lists both presets.
 */
test("a preset shows every setting with its source; the experiment page lists the preset and each override", async ({ page, browser }) => {
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
  await page.screenshot({ path: "/work/helpers/shots/protocol-new-experiment.png", fullPage: false });
  // The setup configures the assistant and embedding roles only: the launch is refused naming a missing role.
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(form.getByRole("alert")).toContainText(/the mem-pal preset needs the (user-simulator|judge) role: no model configured/);
  // An admin configures them (a dead endpoint: the run is cancelled at once), then the launch goes through.
  const admin = await (await browser.newContext()).newPage();
  await login(admin, account("admin"));
  await admin.goto(`${e2eState().baseURL}/admin/models`);
  for (const role of ["judge", "user-simulator"]) {
    const card = admin.getByTestId(`model-${role}`);
    const f = card.getByRole("form", { name: `Settings of ${role}` });
    await f.getByLabel(/Base URL/).fill("http://127.0.0.1:9/v1");
    await f.getByLabel("Model").fill(`e2e-${role}`);
    await f.getByLabel(/API key/).fill("sk-e2e");
    await f.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(`Saved ${role}.`)).toBeVisible();
  }
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/experiments\/\d+$/, { timeout: 30_000 });
  await expect(page.getByTestId("preset")).toContainText("Reproduce Mem-PAL · 2 overrides");
  const overrides = page.getByTestId("preset-overrides");
  await expect(overrides.getByRole("row", { name: /^repeats/ })).toContainText("3");
  await expect(overrides.getByRole("row", { name: /^users/ })).toContainText('["0000"]');
  await page
    .getByRole("button", { name: /Cancel/ })
    .click()
    .catch(() => undefined);
  await page.screenshot({ path: "/work/helpers/shots/protocol-experiment-page.png", fullPage: false });
  await page.goto(`${e2eState().baseURL}/experiments/protocol`);
  await expect(page.getByTestId("protocol-hicupid")).toContainText("HiCUPID Figure A15");
  await expect(page.getByTestId("protocol-notes")).toContainText("What to expect to differ");
  await page.screenshot({ path: "/work/helpers/shots/protocol-notes.png", fullPage: false });
});
