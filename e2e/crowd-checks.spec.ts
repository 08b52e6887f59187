/**
 * Issue 43.3 and 43.2 in a real browser: generated attention checks look like any item (same sides, no
 * tell in the page), a participant who answers them well completes, one who fails them is screened out,
 * and the researcher's participants table (computed in the background, shown with its age) has their
 * results. A hold that lapses: participant A is served the only item and leaves; B finds no work, and
 * after the hold (2 s) is served that item. Screenshots at 390 px and 1440x900.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { test, expect, type Browser, type Page } from "./fixtures";
import { account, e2eState, login, pal } from "./state";
import { labelOne } from "./crowd-steps";

const ROOT = path.resolve(import.meta.dirname, "..");
const PAIRWISE = path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl");
const PROLIFIC = /^https:\/\/app\.prolific\.com\/submissions\/complete\?cc=/;
const shots = (name: string) => test.info().outputPath(name);

function create(name: string, ...extra: string[]): { id: number; token: string } {
  const out = JSON.parse(
    pal(
      "campaign",
      "create",
      "--name",
      name,
      "--kind",
      "pairwise-dialogue",
      "--k",
      "2",
      "--link",
      "--gold-rate",
      "0",
      "--min-seconds",
      "0",
      "--json",
      ...extra,
    ),
  );
  return { id: out.campaign.id, token: out.link.split("/").pop() };
}

async function participant(browser: Browser, width: number, height: number) {
  const ctx = await browser.newContext({ viewport: { width, height } });
  await ctx.route(PROLIFIC, (r) => r.fulfill({ status: 200, contentType: "text/html", body: "<h1>Prolific: submission complete</h1>" }));
  return { ctx, page: await ctx.newPage() };
}

async function join(page: Page, token: string, pid: string) {
  await page.goto(`${e2eState().baseURL}/join/${token}?PROLIFIC_PID=${pid}&STUDY_ID=study-2&SESSION_ID=s-${pid}`);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(new RegExp(`/join/${token}/work$`));
}

type OnScreen = { attention: string | null; gold: Record<string, string> | null; swapped: boolean };
/** What the participant's pending item is, read from the database (the page must not tell). */
function onScreen(campaignId: number, pid: string): OnScreen {
  const db = new Database(e2eState().dbPath, { readonly: true });
  const r = db
    .prepare(
      `select i.attention, i.gold, a.swapped from assignments a join participants p on p.user_id = a.annotator_id
       join campaign_items i on i.id = a.item_id where p.campaign_id = ? and p.prolific_pid = ? and a.status = 'pending'`,
    )
    .get(campaignId, pid) as { attention: string | null; gold: string | null; swapped: number };
  db.close();
  return { attention: r.attention, gold: r.gold ? JSON.parse(r.gold) : null, swapped: r.swapped === 1 };
}

/** The key an attentive reader presses for an item (W/T/L in the order shown); any key for a real item. */
function attentiveKey(s: OnScreen): string {
  const want = s.gold?.requirement ?? "Tie";
  const shown = s.swapped ? ({ Win: "Lose", Lose: "Win", Tie: "Tie" } as Record<string, string>)[want] : want;
  return { Win: "w", Tie: "t", Lose: "l" }[shown]!;
}

/** The visible text and the markup of the item: nothing may name a check or carry an item's id. */
async function assertNoTell(page: Page) {
  const html = await page.content();
  expect(html).not.toMatch(/attention-\d|identical-pair|broken-reply|"gold"|topic-\d/);
}

test("attention checks look like any item; passing completes, failing screens out; the PI's table shows them (390 px, 1440x900)", async ({
  browser,
}) => {
  // Half of what is served is a check, two items each: exactly one of the two is a check.
  const c = create(
    "Crowd checks (e2e)",
    "--items",
    PAIRWISE,
    "--quota",
    "2",
    "--attention-rate",
    "0.5",
    "--max-attention-fails",
    "0",
    "--completion-code",
    "CHK0K",
    "--screenout-code",
    "CHKOUT",
  );
  const outcomes: Record<string, string> = {};
  for (const [pid, attentive] of [
    ["PIDdana0004", true],
    ["PIDeric0005", false],
  ] as const) {
    const { ctx, page } = await participant(browser, 390, 844);
    await join(page, c.token, pid);
    let checks = 0;
    for (let i = 0; i < 2; i++) {
      await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
      const s = onScreen(c.id, pid);
      await assertNoTell(page);
      if (s.attention) {
        checks++;
        // The sides carry the same labels as on any item.
        await expect(page.getByText("Dialogue 1 (first)")).toBeVisible();
        await expect(page.getByText("Dialogue 2 (second)")).toBeVisible();
        if (attentive) await page.screenshot({ path: shots(`attention-item-390.png`), fullPage: true });
      }
      const right = attentiveKey(s);
      const wrong = right === "t" ? "w" : "t";
      await labelOne(page, s.attention && !attentive ? wrong : right, i);
    }
    expect(checks).toBe(1);
    outcomes[pid] = (await page.getByTestId("finish-code").textContent()) ?? "";
    await ctx.close();
  }
  expect(outcomes).toEqual({ PIDdana0004: "CHK0K", PIDeric0005: "CHKOUT" });

  // The researcher's table: computed in the background, its age shown, the checks' results per participant.
  const pi = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await login(pi, account("researcher"));
  await pi.goto(`${e2eState().baseURL}/campaigns/${c.id}`);
  const table = pi.getByTestId("participants-table");
  await expect(table.getByRole("row", { name: /PIDdana0004/ }).getByTestId("attention-cell")).toHaveText("1/1 passed", { timeout: 15_000 });
  await expect(table.getByRole("row", { name: /PIDeric0005/ }).getByTestId("attention-cell")).toHaveText("0/1 passed");
  await expect(table.getByRole("row", { name: /PIDeric0005/ })).toContainText("screened-out");
  await expect(pi.getByTestId("participants-age")).toHaveText(/computed (just now|\d+ s ago)/);
  await pi.screenshot({ path: shots("participants-table-1440.png") });
  await pi.getByTestId("participants-section").screenshot({ path: shots("participants-section-1440.png") });
  // The export marks the checks' labels; they are no real labels.
  const labels = JSON.parse(pal("campaign", "export", "--campaign", String(c.id), "--format", "json")).labels as Array<{
    item: string;
    attention: string | null;
  }>;
  expect(labels.filter((l) => l.attention).length).toBe(4); // two participants × one check × two dimensions
  await pi.close();
});

test("a lapsing hold: A is served the only item and leaves; B finds no work, then after the hold gets that item", async ({ browser }) => {
  const dir = e2eState().dir;
  const one = path.join(dir, "crowd-one-item.jsonl");
  fs.writeFileSync(one, fs.readFileSync(PAIRWISE, "utf8").split("\n")[0] + "\n");
  const c = create("Crowd hold (e2e)", "--items", one, "--k", "1", "--hold-seconds", "2");
  const a = await participant(browser, 1440, 900);
  await join(a.page, c.token, "PIDholdA001");
  await expect(a.page.getByTestId("progress")).toHaveText(/^0 \/ 1 done/);
  await expect(a.page.getByTestId("item-headline")).not.toHaveText("Loading…");
  const headline = await a.page.getByTestId("item-headline").textContent();
  // A leaves without answering.
  await a.ctx.close();

  const b = await participant(browser, 1440, 900);
  await join(b.page, c.token, "PIDholdB002");
  const screen = b.page.getByTestId("no-work").or(b.page.getByTestId("progress")).first();
  await expect(screen).toBeVisible();
  const aRow = () => {
    const db = new Database(e2eState().dbPath, { readonly: true });
    const r = db
      .prepare(
        `select a.item_id, a.held_until, a.status from assignments a join participants p on p.user_id = a.annotator_id where p.campaign_id = ? and p.prolific_pid = 'PIDholdA001'`,
      )
      .get(c.id) as { item_id: number; held_until: number; status: string };
    db.close();
    return r;
  };
  // B's first screen came while A's hold still ran (checked against the stored hold, not a guess of timing):
  // then it is the honest "no work left", not A's item. On a slow machine the hold may be over already.
  const duringHold = Date.now() < aRow().held_until;
  if (duringHold) await expect(b.page.getByTestId("no-work")).toBeVisible();
  test
    .info()
    .annotations.push({ type: "hold", description: duringHold ? "B came during A's hold: no work" : "A's hold had lapsed already" });
  // After the hold lapses, B asking again is served the very item A had.
  await expect(async () => {
    await b.page.goto(`${e2eState().baseURL}/join/${c.token}/work`);
    await expect(b.page.getByTestId("progress")).toHaveText(/^0 \/ 1 done/, { timeout: 1000 });
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });
  await expect(b.page.getByTestId("item-headline")).toHaveText(headline!);
  const db = new Database(e2eState().dbPath, { readonly: true });
  const byB = db
    .prepare(
      `select a.item_id, a.status, a.created_at from assignments a join participants p on p.user_id = a.annotator_id where p.campaign_id = ? and p.prolific_pid = 'PIDholdB002'`,
    )
    .get(c.id) as { item_id: number; status: string };
  db.close();
  const held = aRow();
  expect(byB).toMatchObject({ status: "pending", item_id: held.item_id });
  expect(held).toMatchObject({ status: "pending" });
  expect(held.held_until).toBeLessThan(Date.now());
  // B labels it: k = 1 is met by B alone.
  await labelOne(b.page, "t", 0);
  await expect(b.page.getByTestId("finish")).toBeVisible({ timeout: 30_000 });
  // This study has no completion code: nothing sends B anywhere, and the page does not say it will.
  await expect(b.page.getByTestId("finish")).toContainText("You can close this page.");
  await expect(b.page.getByTestId("finish")).not.toContainText("Prolific");
  await b.ctx.close();
});
