import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";

/**
 * Issue 35, Admin → Settings → Worker processes, through the real server: the admin saves a count, a
 * reload shows it, and an out-of-range or non-numeric value is refused with its reason and saves nothing.
 * The count goes back to 1 at the end so the other specs' runs stay in the server's process.
 */
test("the admin sets the worker processes per run; a reload shows it; a bad value is refused", async ({ page }) => {
  await login(page, account("admin"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${e2eState().baseURL}/admin/settings`);
  const form = page.getByRole("form", { name: "Worker processes" });
  const field = form.getByLabel("Processes per run");
  await expect(field).toHaveValue("1");
  await expect(form.getByTestId("workers-now")).toHaveText("Now: no run uses more than one process.");
  const save = form.getByRole("button", { name: "Save worker count" });

  await field.fill("2");
  await save.click();
  await expect(form.getByRole("status")).toHaveText("Runs use 2 processes.");
  await page.reload();
  await expect(field).toHaveValue("2");
  await page.screenshot({ path: test.info().outputPath("worker-count-settings.png"), fullPage: true });

  // Each refusal differs from the one before, so its alert shows this save's answer, not the last one's.
  for (const [value, reason] of [
    ["0", "workers: at least 1"],
    ["lots", "workers: expected a whole number"],
    ["9999", /^workers: at most \d+ \(twice this machine's cores\)$/],
    ["1.5", "workers: expected a whole number"],
  ] as const) {
    await field.fill(value);
    await save.click();
    await expect(form.getByRole("alert")).toHaveText(reason);
    await expect(save).toBeEnabled();
  }
  await page.reload();
  await expect(field).toHaveValue("2");

  await field.fill("1");
  await save.click();
  await expect(form.getByRole("status")).toHaveText("Runs use one process.");
});
