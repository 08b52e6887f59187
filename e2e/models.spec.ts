import { test, expect } from "./fixtures";
import { e2eState, login, account, pal } from "./state";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";

let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: () => '{"ok": true}' });
});
test.afterAll(async () => {
  await fake.close();
});

test("an admin points a role at an endpoint, tests the connection, and the key never reaches the browser", async ({ page }) => {
  const secret = "sk-e2e-secret-4242";
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/models`);
  const card = page.getByTestId("model-user-simulator");
  const form = card.getByRole("form", { name: "Settings of user-simulator" });
  await form.getByLabel(/Base URL/).fill(fake.baseURL);
  await form.getByLabel("Model").fill("e2e-simulator");
  await form.getByLabel(/API key/).fill(secret);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(card.getByText("Saved user-simulator.")).toBeVisible();
  await expect(card.getByTestId("key-status")).toHaveText("set");

  await card.getByRole("button", { name: "Test connection" }).click();
  // The check asks for a JSON object (the role's JSON mode: off here) and shows what came back.
  await expect(card.getByRole("status").filter({ hasText: "answered in" })).toContainText('JSON mode off: {"ok": true}');
  await page.setViewportSize({ width: 1440, height: 900 });
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: test.info().outputPath("models-check.png") });
  expect(fake.chatRequests.at(-1)?.model).toBe("e2e-simulator");

  await page.reload();
  expect(await page.content()).not.toContain(secret);
  // The database holds only ciphertext.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  const rows = JSON.stringify(db.prepare("select * from model_settings").all());
  db.close();
  expect(rows).toContain("e2e-simulator");
  expect(rows).not.toContain(secret);

  // A failing endpoint says so.
  fake.setFault(() => ({ kind: "status", status: 401 }));
  await page.getByTestId("model-user-simulator").getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("model-user-simulator").getByRole("status").filter({ hasText: "failed" })).toContainText("401");
  fake.setFault(undefined);
});

test("a researcher sees built memories and the model calls each one caused", async ({ page }) => {
  pal("memory", "build", "--dataset", "PAL-Set demo (en)", "--method", "vanilla-log", "--users", "0000");
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/memory`);
  // User 0000's row (other specs may build vanilla-log for other users meanwhile).
  const row = page.getByTestId("memory-table").getByRole("row").filter({ hasText: "vanilla-log" }).filter({ hasText: "0000" }).first();
  await expect(row).toContainText("complete");
  await row.getByRole("link", { name: "vanilla-log" }).click();
  await expect(page.getByRole("heading", { name: "vanilla-log memory of user 0000" })).toBeVisible();
  await expect(page.getByTestId("ledger-summary")).toContainText("0 request(s) to the endpoint");
  // The calls a page at a time, filtered by status with the counts of each.
  const pager = page.getByRole("navigation", { name: "Model calls pages" });
  await expect(pager.getByText("All (", { exact: false })).toHaveAttribute("aria-current", "true");
  await pager.getByRole("link", { name: "Failed (0)" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(pager.getByText("Failed (0)")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("ledger-range")).toHaveText("no calls");
});
