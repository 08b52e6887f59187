import { test, expect } from "./fixtures";
import { e2eState, login, account, type Account } from "./state";
import { annotatorPage } from "./annotate";

/**
 * A fast annotator presses Enter and then S before the submit has landed: the skip must not be sent for the
 * item being labelled (the server would refuse it with 409 "already labelled", shown on the next item).
 */
test("S pressed while a submit is in flight skips nothing; the next item opens clean", async ({ page, browser }) => {
  const ann = e2eState().accounts.find((a) => a.role === "annotator") as Account;
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill(`Race ${Date.now()}`);
  await page.getByLabel("Kind").selectOption({ label: "Session quality rating (PAL-Set)" });
  await page.getByLabel("PAL-Set data set").selectOption({ label: "PAL-Set demo (en)" });
  await page.getByLabel("Users", { exact: true }).fill("1");
  await page.getByLabel("Sessions per user").fill("2");
  await page.getByRole("checkbox", { name: ann.email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());

  const { ctx, page: a } = await annotatorPage(browser, ann);
  // The submit is stored at once but its answer reaches the page late, as on a slow network.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await a.route("**/api/assignments/*", async (route) => {
    if (route.request().method() !== "POST" || !route.request().postData()?.includes('"submit"')) return route.continue();
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await a.goto(`${e2eState().baseURL}/annotate/${id}`);
  const progress = a.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ 2 done/);
  await expect(a.getByTestId("item-headline")).not.toHaveText("Loading…");
  await a.keyboard.press("3");
  await a.keyboard.press("2");
  await a.keyboard.press("Enter");
  await a.keyboard.press("s");
  await a.getByLabel("Skip reason").fill("too short");
  await a.keyboard.press("Enter");
  await a.waitForTimeout(300);
  release();
  await expect(progress).toHaveText(/^1 \/ 2 done/);
  await expect(a.getByText("item 2")).toBeVisible();
  await expect(a.getByLabel("Skip reason")).toHaveCount(0);
  await expect(a.getByText("this item is already labelled")).toHaveCount(0);
  await expect(progress).not.toHaveText(/skipped/);
  await ctx.close();
});
