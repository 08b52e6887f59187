import path from "node:path";
import { test, expect, type Page, type Response } from "./fixtures";
import { e2eState, login, account } from "./state";

/**
 * Server actions refuse bad input with the reason on the form, never a 500 (issue 14, item 10): a
 * tampered campaign-status form (`status=bogus`, an unknown campaign id) and a stale "Remove judge"
 * form (the judge was removed in another tab) answer with the refusal, and nothing changes.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

/** Every server-action response the page gets (they carry a Next-Action request header). */
function actionResponses(page: Page): Response[] {
  const seen: Response[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "POST" && r.request().headers()["next-action"]) seen.push(r);
  });
  return seen;
}

test("a tampered campaign-status form is refused with its reason (400/404 in the result), not a 500", async ({ page }) => {
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill("action errors");
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"));
  const boxes = await page.getByRole("checkbox").all();
  for (const box of boxes) await box.uncheck();
  await boxes[0].check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);

  const responses = actionResponses(page);
  const form = page.getByRole("form", { name: "Campaign status" });
  await form.locator('input[name="status"]').evaluate((el: HTMLInputElement) => (el.value = "bogus"));
  await form.getByRole("button", { name: "Close" }).click();
  await expect(form.getByRole("alert")).toHaveText("status: expected open or closed");

  await form.locator('input[name="status"]').evaluate((el: HTMLInputElement) => (el.value = "closed"));
  await form.locator('input[name="campaignId"]').evaluate((el: HTMLInputElement) => (el.value = "999999"));
  await form.getByRole("button", { name: "Close" }).click();
  await expect(form.getByRole("alert")).toContainText("999999");

  expect(responses.length).toBe(2);
  for (const r of responses) expect(r.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("form", { name: "Campaign status" }).getByRole("button", { name: "Close" })).toBeVisible();

  // The untampered form still works.
  await page.getByRole("form", { name: "Campaign status" }).getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("form", { name: "Campaign status" }).getByRole("button", { name: "Reopen" })).toBeVisible();
});

test("removing a judge that another tab already removed says so (404 reason), not a 500", async ({ page, context }) => {
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/models`);
  const add = page.getByRole("form", { name: /named judge/i });
  await add.getByLabel("Judge name").fill("judge:e2e-gone");
  await add.getByLabel("Model").fill("m");
  // The reload waits for the add's server action: reloading while it is on its way could cancel it.
  const added = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/models"));
  await add.getByRole("button", { name: "Add judge" }).click();
  await added;
  await page.reload();
  const other = await context.newPage();
  await other.goto(`${e2eState().baseURL}/admin/models`);
  await other.getByRole("form", { name: "Remove judge:e2e-gone" }).getByRole("button").click();
  await expect(other.getByRole("form", { name: "Remove judge:e2e-gone" })).toHaveCount(0);

  const responses = actionResponses(page);
  const stale = page.getByRole("form", { name: "Remove judge:e2e-gone" });
  await stale.getByRole("button").click();
  await expect(stale.getByRole("alert")).toHaveText('no saved settings for "judge:e2e-gone"');
  expect(responses.map((r) => r.status())).toEqual([200]);
});
