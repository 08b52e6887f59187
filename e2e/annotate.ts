import { expect, type Browser, type Page } from "./fixtures";
import { account, e2eState, login, type Account } from "./state";

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

/** Creates a campaign through the form as the researcher, assigned to exactly `annotators`; returns its id. */
export async function createCampaign(
  page: Page,
  opts: { name: string; kind: string; file?: string; users?: string; sessions?: string; k: string },
  annotators: Account[],
) {
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill(opts.name);
  await page.getByLabel("Kind").selectOption({ label: opts.kind });
  if (opts.file) await page.getByLabel("Items file").setInputFiles(opts.file);
  if (opts.users) {
    await page.getByLabel("PAL-Set data set").selectOption({ label: "PAL-Set demo (en)" });
    await page.getByLabel("Users", { exact: true }).fill(opts.users);
    await page.getByLabel("Sessions per user").fill(opts.sessions!);
  }
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  for (const a of annotators) await page.getByRole("checkbox", { name: a.email }).check();
  await page.getByLabel("Annotations per item (k)").fill(opts.k);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  return Number(page.url().split("/").pop());
}
