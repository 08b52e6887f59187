import { expect, type Browser, type Page } from "./fixtures";
import { e2eState, login, type Account } from "./state";

/** Signs an annotator in, in a fresh context, recording every response body. */
export async function annotatorPage(browser: Browser, a: Account) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const bodies: Array<Promise<string>> = [];
  page.on("response", (r) => bodies.push(r.text().catch(() => "")));
  await login(page, a);
  return { ctx, page, bodies };
}

/** Labels every item of the signed-in annotator's queue with the keyboard only: `keysFor(i)` per item index, then Enter. */
export async function annotateAll(page: Page, campaignId: number, keysFor: (i: number) => string[]): Promise<number> {
  await page.goto(`${e2eState().baseURL}/annotate/${campaignId}`);
  const progress = page.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ \d+ done/);
  const total = Number((await progress.textContent())!.match(/\/ (\d+)/)![1]);
  for (let i = 0; i < total; i++) {
    await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
    for (const k of keysFor(i)) await page.keyboard.press(k);
    await page.keyboard.press("Enter");
    await expect(progress).toHaveText(new RegExp(`^${i + 1} / ${total} done`));
  }
  return total;
}
