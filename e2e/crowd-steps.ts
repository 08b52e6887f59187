import { expect, type Page } from "./fixtures";

/** Labels the item on screen with the keyboard: one key per dimension, Enter. */
export async function labelOne(page: Page, key: string, doneBefore: number) {
  // "n / n+1": the next item is in the queue (after a submit the queue shows "n / n" until it is served);
  // then it is loaded (keys pressed before that would be dropped).
  await expect(page.getByTestId("progress")).toHaveText(new RegExp(`^${doneBefore} / ${doneBefore + 1} done`));
  await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
  await page.keyboard.press(key);
  await page.keyboard.press(key);
  await expect(page.getByRole("group", { name: "Your judgment" }).locator('[aria-pressed="true"]')).toHaveCount(2);
  await page.keyboard.press("Enter");
  // Stored: the next item is served into the queue (no page load), or the finish page opens.
  const next = page.getByTestId("progress").filter({ hasText: new RegExp(`^${doneBefore + 1} / ${doneBefore + 2} done`) });
  // The finish page is a navigation and a render: on a loaded machine (the suite's two workers) it took over 10 s once.
  await expect(next.or(page.getByTestId("finish"))).toBeVisible({ timeout: 30_000 });
}
