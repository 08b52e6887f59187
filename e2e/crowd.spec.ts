/**
 * Issue 43: crowd participants from a Prolific-style link. One joins, labels with the keyboard, leaves,
 * comes back in the same browser (cookies gone, the browser's key kept), finishes and lands on Prolific's
 * completion URL with the completion code; a second fails the gold check and gets the screen-out code.
 * Prolific's URL is intercepted (page.route): no network. Screenshots at 390 px and 1440x900.
 */
import fs from "node:fs";
import path from "node:path";
import { test, expect, allowConsoleErrors, pageStatus, requestStatus, type Browser } from "./fixtures";
import { account, e2eState, login, pal } from "./state";
import { labelOne } from "./crowd-steps";

const ROOT = path.resolve(import.meta.dirname, "..");
const PAIRWISE = path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl");
const PROLIFIC = /^https:\/\/app\.prolific\.com\/submissions\/complete\?cc=/;

let token = "";
let campaignId = 0;
let otherToken = "";

test.beforeAll(() => {
  const dir = e2eState().dir;
  // The gold item's answer is Tie on both dimensions, the same whichever side is shown first.
  const first = JSON.parse(fs.readFileSync(PAIRWISE, "utf8").split("\n")[0]);
  fs.writeFileSync(
    path.join(dir, "crowd-gold.jsonl"),
    JSON.stringify({ ...first, id: "check-1", gold: { requirement: "Tie", preference: "Tie" } }) + "\n",
  );
  fs.writeFileSync(path.join(dir, "crowd-consent.md"), "Your answers are stored under a pseudonym. You may stop at any time.");
  const args = ["--kind", "pairwise-dialogue", "--items", PAIRWISE, "--k", "2", "--link", "--quota", "3", "--json"];
  const out = JSON.parse(
    pal(
      "campaign",
      "create",
      "--name",
      "Crowd study (e2e)",
      ...args,
      "--completion-code",
      "C0MPL3TE",
      "--screenout-code",
      "SCR33N",
      "--gold",
      path.join(dir, "crowd-gold.jsonl"),
      "--gold-rate",
      "0.34",
      "--min-gold-accuracy",
      "0.99",
      "--consent",
      path.join(dir, "crowd-consent.md"),
      "--min-seconds",
      "0",
    ),
  );
  campaignId = out.campaign.id;
  token = out.link.split("/").pop();
  otherToken = JSON.parse(pal("campaign", "create", "--name", "Another study (e2e)", ...args))
    .link.split("/")
    .pop();
});

const link = (pid: string) => `${e2eState().baseURL}/join/${token}?PROLIFIC_PID=${pid}&STUDY_ID=study-1&SESSION_ID=session-${pid}`;

async function participant(browser: Browser, width = 1440, height = 900) {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  // Prolific's completion page, answered here: the test never leaves the machine.
  await ctx.route(PROLIFIC, (r) => r.fulfill({ status: 200, contentType: "text/html", body: "<h1>Prolific: submission complete</h1>" }));
  return { ctx, page };
}

const shots = (name: string) => test.info().outputPath(name);

test("a participant joins from a Prolific link, labels, leaves, returns, finishes on Prolific's completion URL", async ({ browser }) => {
  const { ctx, page } = await participant(browser);
  await page.goto(link("PIDalice01"));
  await expect(page.getByTestId("join-start")).toBeVisible();
  await expect(page.getByText("stored under a pseudonym")).toBeVisible();
  await page.screenshot({ path: shots("join-1440.png"), fullPage: true });
  const start = page.getByRole("button", { name: "Start" });
  await expect(start).toBeDisabled(); // consent first
  await page.getByLabel("I have read this and agree to take part.").check();
  await start.click();
  await expect(page).toHaveURL(new RegExp(`/join/${token}/work$`));
  await labelOne(page, "t", 0);
  // The next item is served (a fresh page from the server).
  await expect(page.getByTestId("progress")).toHaveText(/^1 \/ 2 done/);
  await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
  await page.screenshot({ path: shots("work-1440.png"), fullPage: true });

  // Leaves: the tab is closed and the cookies are gone; the same browser keeps its key.
  const held = (await import("better-sqlite3")).default;
  const db = new held(e2eState().dbPath, { readonly: true });
  const pending = db
    .prepare(
      "select a.id from assignments a join participants p on p.user_id = a.annotator_id where p.prolific_pid = 'PIDalice01' and a.status = 'pending'",
    )
    .get() as { id: number };
  db.close();
  await page.close();
  await ctx.clearCookies();
  const back = await ctx.newPage();
  await back.goto(link("PIDalice01"));
  await expect(back).toHaveURL(new RegExp(`/join/${token}/work$`));
  await expect(back.getByTestId("progress")).toHaveText(/^1 \/ 2 done/); // resumed on the item held for them

  // Another PID in another browser cannot read or change Alice's item, nor open another study's pages.
  const other = await participant(browser);
  await other.page.goto(link("PIDbob00002"));
  await other.page.getByLabel("I have read this and agree to take part.").check();
  await other.page.getByRole("button", { name: "Start" }).click();
  await expect(other.page).toHaveURL(/\/work$/);
  const api = other.page.request;
  expect((await api.get(`${e2eState().baseURL}/api/assignments/${pending.id}`)).status()).toBe(404);
  const post = await api.post(`${e2eState().baseURL}/api/assignments/${pending.id}`, {
    data: { action: "submit", submissionId: "steal-0000001", values: { requirement: "Win", preference: "Win" } },
    headers: { origin: e2eState().baseURL },
  });
  expect(post.status()).toBe(404);
  allowConsoleErrors(pageStatus(403));
  expect((await other.page.goto(`${e2eState().baseURL}/join/${otherToken}/work`))?.status()).toBe(403);
  for (const p of ["/annotate", "/campaigns", `/campaigns/${campaignId}`])
    expect((await other.page.goto(`${e2eState().baseURL}${p}`))?.status(), p).toBe(403);
  expect((await api.get(`${e2eState().baseURL}/api/me`)).status()).toBe(403);
  const foreign = await api.post(`${e2eState().baseURL}/api/join/${otherToken}/next`, {
    data: {},
    headers: { origin: e2eState().baseURL },
  });
  expect(foreign.status()).toBe(403);
  expect((await api.get(`${e2eState().baseURL}/api/campaigns/${campaignId}/export`)).status()).toBe(403);
  // The same PID from a browser that did not start it is refused (next-auth answers the sign-in 401).
  allowConsoleErrors(requestStatus(401, "/api/auth/callback/participant"));
  const thief = await participant(browser);
  await thief.page.goto(link("PIDalice01"));
  await thief.page.getByLabel("I have read this and agree to take part.").check();
  await thief.page.getByRole("button", { name: "Start" }).click();
  await expect(thief.page.getByText(/already started this study in another browser/)).toBeVisible();
  await thief.ctx.close();
  await other.ctx.close();

  // Alice finishes (quota 3; the third item is the gold one, answered Tie) and lands on Prolific.
  await labelOne(back, "t", 1);
  await labelOne(back, "t", 2);
  await expect(back.getByTestId("finish-code")).toHaveText("C0MPL3TE");
  await expect(back.getByTestId("finish")).toContainText("taken back to Prolific");
  await back.screenshot({ path: shots("done-1440.png"), fullPage: true });
  await expect(back).toHaveURL(/app\.prolific\.com\/submissions\/complete\?cc=C0MPL3TE$/, { timeout: 15_000 });
  // Finished: Alice's answers are final.
  const edit = await back.request.post(`${e2eState().baseURL}/api/assignments/${pending.id}`, {
    data: { action: "submit", submissionId: "late-edit-0001", values: { requirement: "Win", preference: "Win" } },
    headers: { origin: e2eState().baseURL },
  });
  expect(edit.status()).toBe(409);
  await ctx.close();
});

test("a participant who fails the gold check gets the screen-out code; phone screens at 390 px", async ({ browser }) => {
  const { ctx, page } = await participant(browser, 390, 844);
  await page.goto(link("PIDcarol003"));
  await page.screenshot({ path: shots("join-390.png"), fullPage: true });
  await page.getByLabel("I have read this and agree to take part.").check();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/work$/);
  await labelOne(page, "w", 0);
  await expect(page.getByTestId("item-headline")).not.toHaveText("Loading…");
  await page.screenshot({ path: shots("work-390.png"), fullPage: true });
  await labelOne(page, "w", 1);
  await labelOne(page, "w", 2);
  await expect(page.getByTestId("finish-code")).toHaveText("SCR33N");
  await page.screenshot({ path: shots("done-390.png"), fullPage: true });
  await expect(page).toHaveURL(/app\.prolific\.com\/submissions\/complete\?cc=SCR33N$/, { timeout: 15_000 });
  await ctx.close();

  // The researcher sees both on the campaign page, with gold accuracy, and the export names them by pseudonym.
  const pi = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await login(pi, account("researcher"));
  await pi.goto(`${e2eState().baseURL}/campaigns/${campaignId}`);
  const table = pi.getByTestId("participants-table");
  await expect(table.getByRole("row", { name: /PIDcarol003/ })).toContainText("screened-out");
  await expect(table.getByRole("row", { name: /PIDcarol003/ })).toContainText("0% (0/2)");
  await pi.getByTestId("participants-section").screenshot({ path: shots("participants-1440.png") });
  const labels = JSON.parse(pal("campaign", "export", "--campaign", String(campaignId), "--format", "json")).labels as Array<
    Record<string, unknown>
  >;
  expect(labels.every((l) => /^P-[0-9a-f]{10}$/.test(String(l.annotator)))).toBe(true);
  expect(
    labels
      .filter((l) => l.item === "check-1")
      .map((l) => l.gold)
      .sort(),
  ).toEqual([false, false, true, true]);
  await pi.close();
});
