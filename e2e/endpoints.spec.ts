import { test, expect } from "@playwright/test";
import { e2eState, login, account } from "./state";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";

let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: () => "OK" });
});
test.afterAll(async () => {
  await fake.close();
});

test("an admin defines an endpoint once and points two roles at it; its key never reaches the browser", async ({ page }) => {
  const secret = "sk-e2e-endpoint-9191";
  await login(page, account("admin"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${e2eState().baseURL}/admin/models`);

  const create = page.getByRole("form", { name: "Define an endpoint" });
  // A submitted form is reset (React form actions), so every try fills it whole.
  const fill = async (tpm: string) => {
    await create.getByLabel("Name").fill("e2e lab");
    await create.getByLabel("Base URL").fill(fake.baseURL);
    await create.getByLabel(/API key/).fill(secret);
    await create.getByLabel("Models (optional)").fill("e2e-judge, e2e-simulator");
    await create.getByLabel("In flight").fill("3");
    await create.getByLabel("Requests/min").fill("600");
    await create.getByLabel("Tokens/min").fill(tpm);
    await create.getByRole("button", { name: "Add endpoint" }).click();
  };
  await fill("abc");
  // Bad input names the field and saves nothing.
  await expect(create.getByRole("alert")).toContainText("tokens/min");
  await expect(page.getByTestId("endpoint-e2e lab")).toHaveCount(0);
  await fill("100000");
  const card = page.getByTestId("endpoint-e2e lab");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("endpoint-key")).toHaveText("set");

  // Two roles point at it without typing the URL or key again.
  for (const [role, model] of [
    ["judge", "e2e-judge"],
    ["user-simulator", "e2e-simulator"],
  ] as const) {
    const roleCard = page.getByTestId(`model-${role}`);
    const form = roleCard.getByRole("form", { name: `Settings of ${role}` });
    await form.getByLabel("Endpoint").selectOption("e2e lab");
    await form.getByLabel("Model").fill(model);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(roleCard.getByText(`Saved ${role}.`)).toBeVisible();
  }
  await page.reload();
  await expect(page.getByTestId("endpoint-e2e lab").getByTestId("endpoint-used-by")).toHaveText("judge, user-simulator");
  await expect(page.getByTestId("model-judge").getByText("Base URL (endpoint e2e lab)")).toBeVisible();
  await expect(page.getByTestId("model-judge").getByTestId("key-status")).toHaveText("set");

  // Test connection goes to the endpoint with its key and the role's model.
  const simulator = page.getByTestId("model-user-simulator");
  await simulator.getByRole("button", { name: "Test connection" }).click();
  await expect(simulator.getByRole("status").filter({ hasText: "answered in" })).toContainText("OK");
  expect(fake.chatRequests.at(-1)?.model).toBe("e2e-simulator");

  expect(await page.content()).not.toContain(secret);
  await page.getByRole("heading", { name: "Endpoints" }).scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelectorAll("main, body, html").forEach((el) => el.scrollTo(0, 0)));
  await page.screenshot({ path: "/work/helpers/shots/endpoints-models.png", fullPage: false });

  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  const rows = JSON.stringify(db.prepare("select * from endpoints").all());
  const pointed = db.prepare("select name from model_settings where endpoint_id is not null order by name").all();
  db.close();
  expect(rows).toContain('"rpm":600');
  expect(rows).not.toContain(secret);
  expect(pointed).toEqual([{ name: "judge" }, { name: "user-simulator" }]);

  // Removing it returns the roles to their own settings.
  await page.getByRole("button", { name: "Remove endpoint e2e lab" }).click();
  await expect(page.getByTestId("endpoint-e2e lab")).toHaveCount(0);
  await expect(page.getByTestId("model-judge").getByText("Base URL (endpoint e2e lab)")).toHaveCount(0);
});
