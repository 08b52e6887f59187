/**
 * Issue 34.8-34.10: an annotator on a phone (390×844). Every annotator screen (the login page, the
 * annotate list, session rating, pairwise judgment, the completion screen) fits the width with no
 * sideways scrolling; the navigation collapses behind a Menu button that opens, closes on Escape and
 * hands focus back; the buttons a finger taps are at least 44 px; a "1" opens its comment box, and a
 * submit without the comment stops once. The desktop (1440×900) keeps its side navigation. The demo
 * prints an admin, a researcher and three annotators, who all sign in.
 * Screenshots go to the test's output folder, and to PAL_SHOTS when it is set.
 */
import fs from "node:fs";
import path from "node:path";
import { test, expect, type Page, type Locator } from "./fixtures";
import { e2eState, login, type Account } from "./state";
import { annotatorPage, createCampaign } from "./annotate";

const ROOT = path.resolve(import.meta.dirname, "..");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
test.describe.configure({ mode: "serial" });
// Each test creates a campaign through the form and works through it on two screen sizes.
test.setTimeout(180_000);

async function shot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file }); // what the screen shows, 390×844 or 1440×900
  if (process.env.PAL_SHOTS) fs.copyFileSync(file, path.join(process.env.PAL_SHOTS, `phone-${name}.png`));
}

/** The page does not scroll sideways at the current width. */
async function fitsWidth(page: Page, width: number) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Every button in `scope` is at least 44 px high (a finger's tap). */
async function tappable(scope: Locator) {
  const boxes = await scope.getByRole("button").evaluateAll((els) => els.map((e) => [e.textContent, e.getBoundingClientRect().height]));
  expect(boxes.length).toBeGreaterThan(0);
  for (const [text, h] of boxes) expect(h as number, `button "${text}"`).toBeGreaterThanOrEqual(44);
}

/** The third demo annotator: no other spec assigns work to them, so their queue is this spec's alone. */
const third = (): Account => {
  const a = e2eState().accounts.filter((x) => x.role === "annotator");
  expect(a.map((x) => x.email)).toEqual(["annotator1@pal.local", "annotator2@pal.local", "annotator3@pal.local"]);
  return a[2];
};

test("the demo prints an admin, a researcher and three annotators, once, and each of them signs in", async ({ browser }) => {
  const s = e2eState();
  expect(s.accounts.map((a) => `${a.role} ${a.email}`)).toEqual([
    "admin admin@pal.local",
    "researcher researcher@pal.local",
    "annotator annotator1@pal.local",
    "annotator annotator2@pal.local",
    "annotator annotator3@pal.local",
  ]);
  for (const a of s.accounts) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await login(page, a);
    await expect(page.getByTestId("current-role")).toHaveText(a.role);
    await ctx.close();
  }
  // The build log of `npm start` stays under the checkout, never in a temp file shared by every checkout.
  const start = fs.readFileSync(path.join(ROOT, "scripts/start.sh"), "utf8");
  expect(start).toContain(">data/build.log");
  expect(start).not.toMatch(/\/tmp\//);
});

test("login page and the shell at 390 px: no sideways scroll, the navigation behind a Menu button", async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: PHONE });
  const page = await ctx.newPage();
  await page.goto(`${e2eState().baseURL}/login`);
  await fitsWidth(page, PHONE.width);
  await shot(page, "login-390");
  await login(page, third());
  await expect(page).toHaveURL(/\/annotate$/);
  await fitsWidth(page, PHONE.width);
  // The header wraps: Sign out is on screen, not cut off.
  const signOut = (await page.getByRole("button", { name: "Sign out" }).boundingBox())!;
  expect(signOut.x + signOut.width).toBeLessThanOrEqual(PHONE.width);
  expect(signOut.height).toBeGreaterThanOrEqual(44);

  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toHaveAttribute("aria-controls", "main-nav");
  // With the keyboard: Tab to the button, Enter opens, focus goes into the navigation, Escape closes and comes back.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Annotate" })).toBeFocused();
  await shot(page, "nav-open-390");
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  // A tap outside closes it; following a link closes it too.
  await menu.click();
  await expect(nav).toBeVisible();
  await page.mouse.click(370, 600);
  await expect(nav).toBeHidden();
  await menu.click();
  await nav.getByRole("link", { name: "Annotate" }).click();
  await expect(nav).toBeHidden();

  // The desktop keeps its side column and has no Menu button.
  await page.setViewportSize(DESKTOP);
  await expect(nav).toBeVisible();
  await expect(menu).toBeHidden();
  const navBox = (await nav.boundingBox())!;
  expect(navBox.x).toBe(0);
  expect(navBox.width).toBeGreaterThan(150);
  await shot(page, "annotate-list-1440");
  await ctx.close();
});

test("session rating on a phone: fits 390 px, 44 px buttons, a 1 opens its comment box, a submit without it stops once", async ({
  page,
  browser,
}) => {
  const id = await createCampaign(
    page,
    { name: `Phone rating ${Date.now()}`, kind: "Session quality rating (PAL-Set)", users: "1", sessions: "2", k: "1" },
    [third()],
  );
  const { ctx, page: ann } = await annotatorPage(browser, third());
  await ann.setViewportSize(PHONE);
  await ann.goto(`${e2eState().baseURL}/annotate`);
  await expect(ann.getByTestId("my-campaigns")).toBeVisible();
  await fitsWidth(ann, PHONE.width);
  const start = ann.getByTestId("my-campaigns").getByRole("link").first(); // a link, not a button
  expect((await start.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await shot(ann, "annotate-list-390");

  await ann.goto(`${e2eState().baseURL}/annotate/${id}`);
  const progress = ann.getByTestId("progress");
  const headline = ann.getByTestId("item-headline");
  await expect(progress).toHaveText(/^0 \/ 2 done/);
  await expect(headline).not.toHaveText("Loading…");
  await fitsWidth(ann, PHONE.width);
  // The title no longer runs under "0 / 2 done".
  const [h, p] = [(await headline.boundingBox())!, (await progress.boundingBox())!];
  expect(h.y + h.height <= p.y || p.y + p.height <= h.y || h.x + h.width <= p.x).toBe(true);
  await tappable(ann.getByRole("group", { name: "Your judgment" }));
  for (const name of ["Submit", "next", "Skip (S)"])
    expect((await ann.getByRole("button", { name }).first().boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // The panes stack: the situation above the logs, both the screen's width.
  const situation = (await ann.getByRole("region", { name: /^Situation/ }).boundingBox())!;
  const logs = (await ann.getByRole("region", { name: /^Logs \(\d+\)/ }).boundingBox())!;
  expect(logs.y).toBeGreaterThan(situation.y + situation.height - 1);
  await shot(ann, "session-rating-390");

  // Item 1, by touch: tapping 1 on Logs opens its comment box, focused; Enter goes on to Dialogue.
  const logsDim = ann.getByTestId("dimension-logs");
  await logsDim.getByRole("button", { name: /does not match/ }).click();
  const comment = ann.getByLabel("Comment on Logs");
  await expect(comment).toBeFocused();
  await expect(comment).toHaveAttribute("placeholder", /guidelines ask for a comment/);
  await shot(ann, "comment-prompt-390");
  await ann.keyboard.type("the logs miss the move to Berlin");
  await ann.keyboard.press("Enter");
  await expect(ann.getByTestId("dimension-dialogue")).toHaveClass(/ring-2/);
  // A 2 does not open the box: the keys keep going.
  await ann.keyboard.press("2");
  expect(await ann.evaluate(() => document.activeElement?.tagName)).not.toBe("TEXTAREA");
  await ann.keyboard.press("Enter");
  await expect(progress).toHaveText(/^1 \/ 2 done/);

  // Item 2, by keyboard: 1 on Logs with no comment (Enter leaves the box), 3 on Dialogue, Enter stops once.
  await expect(headline).not.toHaveText("Loading…");
  await ann.keyboard.press("1");
  await expect(ann.getByLabel("Comment on Logs")).toBeFocused();
  await ann.keyboard.press("Enter");
  await ann.keyboard.press("3");
  await ann.keyboard.press("Enter");
  await expect(ann.getByTestId("comment-nudge")).toContainText("The guidelines ask for a comment on Logs");
  await expect(progress).toHaveText(/^1 \/ 2 done/);
  await expect(ann.getByRole("button", { name: /Submit without comment/ })).toBeVisible();
  await fitsWidth(ann, PHONE.width);
  await shot(ann, "comment-nudge-390");
  await ann.keyboard.press("Enter");
  await expect(progress).toHaveText(/^2 \/ 2 done/);

  await expect(ann.getByTestId("completion")).toBeVisible();
  await expect(ann.getByTestId("completion-counts")).toHaveText("2 labelled · 0 skipped · 1 with a comment");
  await fitsWidth(ann, PHONE.width);
  await tappable(ann.getByTestId("completion"));
  await shot(ann, "done-390");
  await ann.setViewportSize(DESKTOP);
  await ann.getByTestId("completion").getByRole("button").first().click();
  await expect(ann.getByLabel("Comment on Logs")).toHaveValue("the logs miss the move to Berlin");
  await shot(ann, "session-rating-1440");
  await ctx.close();
});

test("pairwise judgment on a phone: fits 390 px, Win/Tie/Lose and next/skip are 44 px, the keys still work", async ({ page, browser }) => {
  const id = await createCampaign(
    page,
    {
      name: `Phone pairwise ${Date.now()}`,
      kind: "Pairwise dialogue judging",
      file: path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"),
      k: "1",
    },
    [third()],
  );
  const { ctx, page: ann } = await annotatorPage(browser, third());
  await ann.setViewportSize(PHONE);
  await ann.goto(`${e2eState().baseURL}/annotate/${id}`);
  const progress = ann.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ 6 done/);
  await expect(ann.getByTestId("item-headline")).not.toHaveText("Loading…");
  await expect(ann.getByRole("region", { name: "Dialogue 1 (first)" })).toBeVisible();
  await fitsWidth(ann, PHONE.width);
  await tappable(ann.getByRole("group", { name: "Your judgment" }));
  for (const name of ["next", "Skip (S)", "Guidelines"])
    expect((await ann.getByRole("button", { name }).first().boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // Stacked and read top to bottom (issue 44.2): the user's card, then dialogue 1, then dialogue 2.
  const d1 = (await ann.getByRole("region", { name: "Dialogue 1 (first)" }).boundingBox())!;
  const d2 = (await ann.getByRole("region", { name: "Dialogue 2 (second)" }).boundingBox())!;
  const info = (await ann.getByRole("region", { name: "User information" }).boundingBox())!;
  expect(d2.y).toBeGreaterThan(d1.y + d1.height - 1);
  expect(d1.y).toBeGreaterThan(info.y + info.height - 1);
  await shot(ann, "pairwise-390");
  // With a keyboard the queue works as on a desktop (W/T/L never asks for a comment).
  await ann.keyboard.press("w");
  await ann.keyboard.press("t");
  await ann.keyboard.press("Enter");
  await expect(progress).toHaveText(/^1 \/ 6 done/);
  // The skip reason field fits too.
  await ann.getByRole("button", { name: "Skip (S)" }).click();
  await expect(ann.getByLabel("Skip reason")).toBeFocused();
  await fitsWidth(ann, PHONE.width);
  await ann.keyboard.press("Escape");
  await ann.setViewportSize(DESKTOP);
  await expect(ann.getByRole("navigation", { name: "Main" })).toBeVisible();
  const d1d = (await ann.getByRole("region", { name: "Dialogue 1 (first)" }).boundingBox())!;
  const infod = (await ann.getByRole("region", { name: "User information" }).boundingBox())!;
  expect(d1d.x).toBeLessThan(infod.x); // side by side again on a desktop
  await shot(ann, "pairwise-1440");
  await ctx.close();
});
