/**
 * Issue 44.2: judging an item on a phone (390×844, a touch screen) is reading it top to bottom, then deciding.
 * The context comes first (the user's card, the situation), then the dialogue(s), each as long as it is (no
 * box of fixed height scrolling inside the page); the decision (1–3, or Win/Tie/Lose, and Submit) stays
 * fixed at the bottom of the screen. Measured: the scroll back from the end of the last thing read to the
 * decision, at most one screen (it was ~3,600 px for a rating). The labels say nothing of left/right (the
 * dialogues are stacked) and name no method; a touch screen shows no keyboard hints, yet the keys still
 * work with a keyboard. The desktop (1440×900) keeps its sticky bar above the content and its hints.
 * Screenshots go to the test's output folder, and to PAL_SHOTS when it is set.
 */
import fs from "node:fs";
import path from "node:path";
import { test, expect, type Browser, type Page, type Locator } from "./fixtures";
import { e2eState, login, type Account } from "./state";
import { createCampaign } from "./annotate";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

// What the screen shows (no full-page captures: they resize the page and drop the touch emulation).
async function shot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  if (process.env.PAL_SHOTS) fs.copyFileSync(file, path.join(process.env.PAL_SHOTS, `decision-${name}.png`));
}

/** The third demo annotator (as e2e/phone.spec.ts): this spec opens its own campaigns by id, so no other queue changes. */
const annotator = (): Account => e2eState().accounts.filter((x) => x.role === "annotator")[2];

async function open(browser: Browser, opts: typeof PHONE | typeof DESKTOP, campaignId: number) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  await login(page, annotator());
  await page.goto(`${e2eState().baseURL}/annotate/${campaignId}`);
  await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
  return { ctx, page };
}

/**
 * Scrolls to the end of the page (where reading the last content ends) and returns how far the reader must
 * scroll back to have the whole decision on screen: 0 when it is there already.
 */
async function scrollBack(page: Page, last: Locator, decision: Locator) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(100);
  const end = (await last.evaluate((e) => e.getBoundingClientRect().bottom)) as number;
  const vh = await page.evaluate(() => window.innerHeight);
  expect(end, "the end of the last content is on screen at the end of the page").toBeLessThanOrEqual(vh);
  const d = await decision.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.top < 0 ? -r.top : r.bottom > window.innerHeight ? r.bottom - window.innerHeight : 0;
  });
  return { distance: d, end };
}

/** No content pane scrolls inside the page: each shows all it holds. */
async function noNestedScroll(page: Page) {
  const inner = await page
    .getByTestId("annotate-queue")
    .locator("[data-scroll-pane]:not([data-scroll-pane^='Guidelines']) [data-scroll-body]")
    .evaluateAll((els) => els.map((e) => [e.parentElement!.getAttribute("data-scroll-pane"), e.scrollHeight - e.clientHeight] as const));
  expect(inner.length).toBeGreaterThan(0);
  for (const [name, hidden] of inner) expect(hidden, `pane "${name}" scrolls inside the page`).toBeLessThanOrEqual(1);
}

/** Touch: no keyboard hint anywhere on the screen (no visible key caps, no "press X", no "(S)"). */
async function noKeyHints(page: Page) {
  const queue = page.getByTestId("annotate-queue");
  const caps = await queue.locator("kbd").evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
  expect(caps, "visible key caps").toBe(0);
  const text = await queue.innerText();
  expect(text).not.toMatch(/\bpress\b|\(S\)|\bEnter\b|\bEsc\b|— G/i);
  for (const p of await queue.locator("textarea, input").evaluateAll((els) => els.map((e) => e.getAttribute("placeholder") ?? "")))
    expect(p).not.toMatch(/\bpress\b|\bEnter\b|\bEsc\b/i);
  await expect(page.getByRole("button", { name: "Keyboard shortcuts" })).toBeHidden();
}

/** The decision bar is on screen at the top and at the end of the page: fixed, not scrolled away. */
async function fixedBar(page: Page, decision: Locator) {
  for (const y of [0, 1e6]) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    const r = (await decision.boundingBox())!; // viewport coordinates
    expect(r.y, `the decision at scroll ${y}`).toBeGreaterThanOrEqual(0);
    expect(r.y + r.height).toBeLessThanOrEqual(844);
  }
  expect(await page.getByTestId("decision-bar").evaluate((e) => getComputedStyle(e).position)).toBe("fixed");
}

/** The guidelines button is whole on screen (it was cut at the right edge). */
async function guidelinesWhole(page: Page) {
  const g = page.getByRole("button", { name: "Guidelines", exact: true });
  const b = (await g.boundingBox())!;
  expect(b.x + b.width).toBeLessThanOrEqual(390);
}

test("a rating item on a phone: context first, the 1–3 bar fixed at the bottom, at most one screen back, no key hints", async ({
  page,
  browser,
}) => {
  const id = await createCampaign(
    page,
    { name: `Decision rating ${Date.now()}`, kind: "Session quality rating (PAL-Set)", users: "1", sessions: "1", k: "1" },
    [annotator()],
  );
  const { ctx, page: ann } = await open(browser, PHONE, id);
  const decision = ann.getByRole("group", { name: "Your judgment" });
  const last = ann.getByRole("region", { name: /^Dialogue \(\d+ utterances\)/ });
  await shot(ann, "rating-390");

  const { distance, end } = await scrollBack(ann, last, decision);
  console.log(`rating at 390×844: scroll back from the end of the dialogue to the decision ${Math.round(distance)} px`);
  expect(distance).toBeLessThanOrEqual(844);
  // Nothing read is hidden under the fixed bar: the dialogue ends above it.
  const bar = (await ann.getByTestId("decision-bar").boundingBox())!;
  expect(end).toBeLessThanOrEqual(bar.y + 1);
  await shot(ann, "rating-390-end");

  // Read top to bottom: the situation and the user's profile, then the logs, then the dialogue.
  const y = async (name: RegExp) => (await ann.getByRole("region", { name }).boundingBox())!.y;
  const [situation, profile, logs, dialogue] = [
    await y(/^Situation/),
    await y(/^Profile, requirement types/),
    await y(/^Logs \(\d+\)/),
    await y(/^Dialogue \(\d+ utterances\)/),
  ];
  expect(situation).toBeLessThan(profile);
  expect(profile).toBeLessThan(logs);
  expect(logs).toBeLessThan(dialogue);
  await noNestedScroll(ann);
  await fixedBar(ann, decision);
  await noKeyHints(ann);
  await guidelinesWhole(ann);

  // Judged by touch, from wherever the reader is: a 1 opens its comment box, written, then Submit.
  await ann
    .getByTestId("dimension-logs")
    .getByRole("button", { name: /completely matches/ })
    .tap();
  await ann
    .getByTestId("dimension-dialogue")
    .getByRole("button", { name: /does not match/ })
    .tap();
  await expect(ann.getByLabel("Comment on Dialogue")).toBeFocused();
  await noKeyHints(ann);
  await ann.getByLabel("Comment on Dialogue").fill("the assistant ignores the budget");
  await shot(ann, "rating-390-comment");
  await ann.getByRole("button", { name: "Submit", exact: true }).tap();
  await expect(ann.getByTestId("progress")).toHaveText(/^1 \/ 1 done/);
  await ctx.close();

  // The desktop keeps its layout: the bar above the content (sticky, not fixed), with its key hints.
  const d = await open(browser, DESKTOP, id);
  await expect(d.page.getByTestId("completion")).toBeVisible();
  await d.page.keyboard.press("ArrowLeft"); // the desktop's keys: ← opens the last item again
  await expect(d.page.getByTestId("item-headline")).not.toHaveText("All items are through");
  const dg = (await d.page.getByRole("group", { name: "Your judgment" }).boundingBox())!;
  const situationD = (await d.page.getByRole("region", { name: /^Situation/ }).boundingBox())!;
  const logsD = (await d.page.getByRole("region", { name: /^Logs \(\d+\)/ }).boundingBox())!;
  expect(dg.y + dg.height).toBeLessThanOrEqual(situationD.y);
  expect(situationD.x).toBeLessThan(logsD.x); // side by side
  expect(await d.page.getByTestId("decision-bar").evaluate((e) => getComputedStyle(e).position)).not.toBe("fixed");
  await expect(d.page.getByRole("button", { name: /^Submit/ }).locator("kbd")).toBeVisible();
  await expect(d.page.getByRole("button", { name: "Keyboard shortcuts" })).toBeVisible();
  await expect(d.page.getByLabel("Comment on Logs")).toHaveAttribute("placeholder", /press C/);
  await shot(d.page, "rating-1440");
  await d.ctx.close();
});

/** Two long dialogues, as an experiment gives them (12 turns each): the page is several screens long. */
function longPairs(file: string) {
  const turns = (who: string) =>
    Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content:
        i % 2
          ? `${who} reply ${i}: here is a longer answer that weighs the user's stated preferences against the budget, asks one clarifying question, and proposes two concrete options with their trade-offs.`
          : `User turn ${i}: I would like something quiet near the coast, ideally in spring, and not too expensive.`,
    }));
  const rows = [1, 2].map((n) =>
    JSON.stringify({
      id: `long-${n}`,
      topic: `Plan a spring trip ${n}`,
      user_info: { profile: `User ${n}, 34 years old, teacher`, preferences: ["quiet places", "trains over planes", "a tight budget"] },
      a: { system: "system-alpha", output: turns("First") },
      b: { system: "system-beta", output: turns("Second") },
    }),
  );
  fs.writeFileSync(file, rows.join("\n") + "\n");
}

test("a pairwise item on a phone: the user's card, then both dialogues whole, Win/Tie/Lose fixed at the bottom, no left/right", async ({
  page,
  browser,
}) => {
  const file = test.info().outputPath("long-pairs.jsonl");
  longPairs(file);
  const id = await createCampaign(page, { name: `Decision pairwise ${Date.now()}`, kind: "Pairwise dialogue judging", file, k: "1" }, [
    annotator(),
  ]);
  const { ctx, page: ann } = await open(browser, PHONE, id);
  const decision = ann.getByRole("group", { name: "Your judgment" });
  const d2 = ann.getByRole("region", { name: "Dialogue 2 (second)" });
  await shot(ann, "pairwise-390");

  const { distance, end } = await scrollBack(ann, d2, decision);
  console.log(`pairwise at 390×844: scroll back from the end of dialogue 2 to the decision ${Math.round(distance)} px`);
  expect(distance).toBeLessThanOrEqual(844);
  expect(end).toBeLessThanOrEqual((await ann.getByTestId("decision-bar").boundingBox())!.y + 1);
  await shot(ann, "pairwise-390-end");

  // The user's card first, then dialogue 1, then dialogue 2; none of them a box scrolling inside the page.
  const info = (await ann.getByRole("region", { name: "User information" }).boundingBox())!;
  const d1 = (await ann.getByRole("region", { name: "Dialogue 1 (first)" }).boundingBox())!;
  const d2b = (await d2.boundingBox())!;
  expect(info.y + info.height).toBeLessThanOrEqual(d1.y + 1);
  expect(d1.y + d1.height).toBeLessThanOrEqual(d2b.y + 1);
  await noNestedScroll(ann);
  await fixedBar(ann, decision);
  await noKeyHints(ann);
  await guidelinesWhole(ann);

  // Stacked, so no left/right anywhere; blinded, so no system's name.
  const text = await ann.getByTestId("annotate-queue").innerText();
  expect(text).not.toMatch(/\b(left|right)\b/i);
  expect(text).not.toMatch(/system-alpha|system-beta/);
  const labels = await decision.getByRole("button").allInnerTexts();
  expect(labels.join(" | ")).toMatch(/Dialogue 1 is better.*Dialogue 2 is better/);

  // By touch: Win on requirement, Tie on preference, Submit.
  await ann
    .getByTestId("dimension-requirement")
    .getByRole("button", { name: /Dialogue 1 is better/ })
    .tap();
  await ann.getByTestId("dimension-preference").getByRole("button", { name: /tie/i }).tap();
  await ann.getByRole("button", { name: "Submit", exact: true }).tap();
  await expect(ann.getByTestId("progress")).toHaveText(/^1 \/ 2 done/);
  // A keyboard on the touch device still works: PageDown scrolls the page (the panes do not scroll), W, T, Enter.
  await expect(ann.getByTestId("item-headline")).toHaveText(/spring trip 2/);
  await ann.evaluate(() => window.scrollTo(0, 0));
  await ann.keyboard.press("PageDown");
  await expect.poll(() => ann.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await ann.keyboard.press("w");
  await ann.keyboard.press("t");
  await ann.keyboard.press("Enter");
  await expect(ann.getByTestId("progress")).toHaveText(/^2 \/ 2 done/);
  await ctx.close();

  // The desktop: the dialogues side by side beside the user's card, the bar above them with its key caps.
  const d = await open(browser, DESKTOP, id);
  await expect(d.page.getByTestId("completion")).toBeVisible();
  await d.page.keyboard.press("ArrowLeft");
  await expect(d.page.getByTestId("item-headline")).toHaveText(/spring trip/);
  const dd1 = (await d.page.getByRole("region", { name: "Dialogue 1 (first)" }).boundingBox())!;
  const dd2 = (await d.page.getByRole("region", { name: "Dialogue 2 (second)" }).boundingBox())!;
  const dinfo = (await d.page.getByRole("region", { name: "User information" }).boundingBox())!;
  const dg = (await d.page.getByRole("group", { name: "Your judgment" }).boundingBox())!;
  expect(dd1.x).toBeLessThan(dd2.x);
  expect(dd2.x).toBeLessThan(dinfo.x);
  expect(dg.y + dg.height).toBeLessThanOrEqual(dd1.y);
  await expect(d.page.getByTestId("dimension-requirement").locator("kbd").first()).toHaveText("w");
  await shot(d.page, "pairwise-1440");
  await d.ctx.close();
});
