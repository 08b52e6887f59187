import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";

test("command 1 prints the URL and the demo admin; the admin signs in and sees the demo data sets", async ({ page }) => {
  const s = e2eState();
  expect(s.startOutput).toContain(s.baseURL);
  const admin = account("admin");
  expect(admin.email).toBe("admin@pal.local");
  await login(page, admin);
  await expect(page).toHaveURL(/\/datasets$/);
  await expect(page.getByTestId("current-role")).toHaveText("admin");
  for (const name of ["PAL-Set demo (zh)", "PAL-Set demo (en)", "HiCUPID demo"]) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  }
  // every section is in the admin's navigation
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of ["Datasets", "Experiments", "Annotate", "Agreement", "Admin"]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
});
