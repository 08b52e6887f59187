import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { startMethodServer } from "../test/method-server";

/**
 * Issue 41, Admin → Methods through the real server: the admin registers an external method (a real HTTP
 * method server started here), checks it (it conforms), sees a bad registration refused with its reason,
 * finds the method among the experiment form's choices, and removes it.
 */
test("the admin registers, checks and removes an external method", async ({ page }) => {
  const svc = await startMethodServer();
  try {
    await login(page, account("admin"));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${e2eState().baseURL}/admin/methods`);
    const form = page.getByRole("form", { name: "Register a method" });
    await form.getByLabel("Name").fill("labrag");
    await form.getByLabel("Label in results").fill("Lab-RAG");
    await form.getByLabel("Service URL").fill(svc.url);
    await form.getByLabel("Headers").fill("X-Lab-Key: e2e-secret");
    await form.getByRole("button", { name: "Register" }).click();
    await expect(form.getByRole("status")).toHaveText("Registered labrag.");
    const table = page.getByRole("region", { name: "Registered methods" });
    await expect(table.getByRole("row", { name: /labrag/ })).toContainText("X-Lab-Key (saved encrypted)");
    await expect(page.locator("body")).not.toContainText("e2e-secret");

    await form.getByLabel("Name").fill("vanilla");
    await form.getByLabel("Service URL").fill(svc.url);
    await form.getByRole("button", { name: "Register" }).click();
    await expect(form.getByRole("alert")).toContainText("built-in method");

    await table.getByRole("button", { name: "Check" }).click();
    await expect(page.getByTestId("check-result")).toContainText("Conforms · test-method 1");
    expect(svc.requests.some((r) => r.path === "/respond" && r.headers["x-lab-key"] === "e2e-secret")).toBe(true);
    await page.screenshot({ path: test.info().outputPath("admin-methods.png"), fullPage: true });

    await page.goto(`${e2eState().baseURL}/experiments`);
    await expect(page.locator("body")).toContainText("Lab-RAG");

    await page.goto(`${e2eState().baseURL}/admin/methods`);
    await page.getByRole("button", { name: "Remove labrag" }).click();
    await expect(page.getByRole("region", { name: "Registered methods" })).toContainText("No external method yet");
  } finally {
    await svc.close();
  }
});
