/**
 * Issue 43.4 and 43.5 in a real browser against `next start`: the PI decides a split item in the
 * adjudication queue with a reason, and the export, the agreement report and Table 11 (by adjudication)
 * read the decision; the PI edits the guidelines of a running campaign, a label submitted from a page
 * opened before records version 1, one after records version 2, and the agreement page splits by version.
 * A crowd participant is refused both pages. Screenshots of the queue and of the guidelines editor at 1440x900.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { test, expect, allowConsoleErrors, pageStatus, type Page } from "./fixtures";
import { account, e2eState, login, pal, type Account } from "./state";
import { annotatorPage } from "./annotate";

const ROOT = path.resolve(import.meta.dirname, "..");
const PAIRWISE = path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl");

test.describe.configure({ mode: "serial" });

function annotators(): Account[] {
  return e2eState()
    .accounts.filter((x) => x.role === "annotator")
    .slice(0, 2);
}
function read<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(e2eState().dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
const userId = (email: string) => read<{ id: number }>("select id from users where email = ?", email)[0].id;

function createCampaign(name: string, extra: string[] = []): number {
  const ids = annotators().map((a) => userId(a.email));
  const out = pal(
    "campaign",
    "create",
    "--name",
    name,
    "--kind",
    "pairwise-dialogue",
    "--items",
    PAIRWISE,
    "--k",
    "2",
    "--annotators",
    ids.join(","),
    ...extra,
    "--json",
  );
  return JSON.parse(out).campaign.id;
}

const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);

/** Submits canonical labels for one item through the annotator's own API (the queue's own request), read back swapped. */
async function submitAs(page: Page, annotator: Account, campaignId: number, item: string, requirement: string, preference: string) {
  const [a] = read<{ id: number; swapped: number }>(
    "select a.id, a.swapped from assignments a join campaign_items i on i.id = a.item_id where a.campaign_id = ? and i.external_id = ? and a.annotator_id = ?",
    campaignId,
    item,
    userId(annotator.email),
  );
  const shown = (v: string) => (a.swapped ? flip(v) : v);
  const r = await page.request.post(`${e2eState().baseURL}/api/assignments/${a.id}`, {
    headers: { origin: e2eState().baseURL },
    data: {
      action: "submit",
      submissionId: `adj-${campaignId}-${item}-${annotator.email}`.replace(/[^\w-]/g, "-").slice(0, 80),
      values: { requirement: shown(requirement), preference: shown(preference) },
      ms: 4200,
    },
  });
  expect(r.status(), await r.text()).toBe(200);
}

test("the PI decides a split item with a reason; the export, the agreement report and Table 11 read the decision", async ({
  page,
  browser,
}, testInfo) => {
  const id = createCampaign("Adjudication e2e");
  const [a1, a2] = annotators();
  const s1 = await annotatorPage(browser, a1);
  const s2 = await annotatorPage(browser, a2);
  // topic-1 splits on both dimensions (the most disagreement), topic-3 on one, topic-2 agrees.
  await submitAs(s1.page, a1, id, "topic-1", "Win", "Win");
  await submitAs(s2.page, a2, id, "topic-1", "Lose", "Lose");
  await submitAs(s1.page, a1, id, "topic-2", "Win", "Tie");
  await submitAs(s2.page, a2, id, "topic-2", "Win", "Tie");
  await submitAs(s1.page, a1, id, "topic-3", "Win", "Tie");
  await submitAs(s2.page, a2, id, "topic-3", "Tie", "Tie");
  // An annotator may not open the queue.
  allowConsoleErrors(pageStatus(403));
  expect((await s1.page.goto(`${e2eState().baseURL}/campaigns/${id}/adjudicate`))?.status()).toBe(403);
  await s1.ctx.close();
  await s2.ctx.close();

  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  const base = e2eState().baseURL;
  // A judge that says Win everywhere, for Table 11.
  await page.goto(`${base}/campaigns/${id}`);
  const form = page.getByRole("form", { name: "Import judge verdicts" });
  await form.getByLabel("Judge name").fill("always-win");
  const verdicts = ["topic-1", "topic-2", "topic-3"].map((item) => JSON.stringify({ item, dimension: "requirement", verdict: "Win" }));
  await form
    .getByLabel("Verdicts file")
    .setInputFiles({ name: "win.jsonl", mimeType: "text/plain", buffer: Buffer.from(verdicts.join("\n")) });
  await form.getByRole("button", { name: "Import verdicts" }).click();
  await expect(form.getByRole("status")).toHaveText("Imported 3 verdicts.");

  // The queue: most disagreement first, once the background report has ordered it (the page polls until then).
  await page.getByRole("link", { name: "Adjudicate", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${id}/adjudicate$`));
  const card = page.getByTestId("adjudicate-item-topic-1");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("article").first()).toHaveAttribute("data-testid", "adjudicate-item-topic-1");
  await expect(page.getByTestId("adjudicate-item-topic-3")).toBeVisible();
  await expect(page.getByTestId("adjudicate-item-topic-2")).toHaveCount(0);
  // The item readable (the dialogues, the user), each label with its annotator and seconds.
  await expect(card.getByText("Plan a weekend trip").first()).toBeVisible();
  await expect(card.getByText("likes quiet places").first()).toBeVisible();
  const reqRows = card.getByTestId("labels-topic-1-requirement").locator("tbody tr");
  await expect(reqRows).toHaveCount(2);
  await expect(reqRows.nth(0)).toContainText(a1.email);
  await expect(reqRows.nth(0)).toContainText("4.2");
  await expect(reqRows.nth(1)).toContainText(a2.email);

  // "other" without a note is refused, naming the field; then the decision with its reason.
  const decide = card.getByRole("form", { name: "Adjudicate requirement" });
  await decide.getByLabel("Adjudicated label for requirement").selectOption("Win");
  await decide.getByLabel("Reason for requirement").selectOption("other");
  await decide.getByRole("button", { name: "Record adjudication" }).click();
  await expect(decide.getByRole("alert")).toContainText('note: say why when the reason is "other"');
  // The refused form keeps what was chosen.
  await expect(decide.getByLabel("Adjudicated label for requirement")).toHaveValue("Win");
  await expect(decide.getByLabel("Reason for requirement")).toHaveValue("other");
  await decide.getByLabel("Reason for requirement").selectOption("guideline-gap");
  await decide.getByLabel("Note for requirement").fill("the guidelines say nothing about asking back");
  await decide.getByRole("button", { name: "Record adjudication" }).click();
  await expect(card.getByTestId("decision-topic-1-requirement")).toContainText("guideline gap");
  await expect(card.getByTestId("decision-topic-1-requirement")).toContainText("the guidelines say nothing about asking back");
  // The form shows the decision as stored (not a reset select's first option).
  await expect(decide.getByLabel("Reason for requirement")).toHaveValue("guideline-gap");
  await expect(decide.getByLabel("Adjudicated label for requirement")).toHaveValue("Win");
  await page.screenshot({ path: testInfo.outputPath("adjudication-1440.png") });
  await page.screenshot({ path: testInfo.outputPath("adjudication-1440-full.png"), fullPage: true });

  // The export: the item adjudicated, the decision with its reason.
  const exported = await (await page.request.get(`${base}/api/campaigns/${id}/export?format=json`)).json();
  expect(
    exported.itemOutcomes.find((o: { item: string; dimension: string }) => o.item === "topic-1" && o.dimension === "requirement"),
  ).toMatchObject({ outcome: "adjudicated", value: "Win" });
  expect(exported.adjudications).toEqual([
    expect.objectContaining({ item: "topic-1", dimension: "requirement", value: "Win", reason: "guideline-gap" }),
  ]);

  // The agreement page, by adjudication: Table 11's humans count the decision (Win) where the vote has a tie.
  await page.goto(`${base}/campaigns/${id}?humans=adjudication`);
  await expect(page.getByTestId("agreement-age")).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  await expect(
    page
      .getByTestId("table11")
      .first()
      .getByRole("row", { name: /Human \(adjudication\)/ })
      .first(),
  ).toContainText("2 / 1 / 0");
  await page.goto(`${base}/campaigns/${id}?humans=vote`);
  await expect(
    page
      .getByTestId("table11")
      .first()
      .getByRole("row", { name: /Human \(vote\)/ })
      .first(),
  ).toContainText("1 / 2 / 0");
  // The report's majority takes the decision as the item's label.
  const after = await (await page.request.get(`${base}/api/campaigns/${id}/export?format=json`)).json();
  expect(after.agreement.current).toBe(true);
  const req = after.agreement.dimensions.find((d: { dimension: { key: string } }) => d.dimension.key === "requirement");
  expect(req.majority.items.find((i: { externalId: string }) => i.externalId === "topic-1")).toMatchObject({
    label: "Win",
    rule: "adjudicated",
  });
});

test("the PI edits the guidelines: a label from a page opened before records version 1, after it version 2; agreement by version", async ({
  page,
  browser,
}, testInfo) => {
  const guidelines = path.join(e2eState().dir, "adjudication-guidelines.md");
  fs.writeFileSync(guidelines, "## Guidelines\n\nPick the dialogue that helps the user more.");
  const id = createCampaign("Guideline versions e2e", ["--guidelines", guidelines]);
  const [a1, a2] = annotators();
  const base = e2eState().baseURL;

  // Annotator 1 opens the queue now: their page shows version 1.
  const s1 = await annotatorPage(browser, a1);
  await s1.page.goto(`${base}/annotate/${id}`);
  await expect(s1.page.getByTestId("item-headline")).not.toHaveText("Loading…");
  await expect(s1.page.getByText("Pick the dialogue that helps the user more.").first()).toBeVisible();

  // The PI edits them; a text naming a compared system is held back, as at creation.
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${base}/campaigns/${id}`);
  await page.getByRole("link", { name: "Guidelines", exact: true }).click();
  await expect(page.getByTestId("guidelines-version")).toHaveText("version 1");
  const text = page.getByLabel(/Guidelines \(Markdown\)/);
  await text.fill("## Guidelines\n\nPrefer h2memory when it asks back.");
  await expect(page.getByTestId("names-system-warning")).toContainText("h2memory");
  const save = page.getByRole("button", { name: "Save as version 2" });
  await expect(save).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath("guidelines-edit-warning-1440.png") });
  await text.fill(
    "## Guidelines\n\nPick the dialogue that helps the user more. A follow-up question that narrows the need counts as help.",
  );
  await expect(page.getByTestId("names-system-warning")).toHaveCount(0);
  await save.click();
  await expect(page.getByTestId("guidelines-version")).toHaveText("version 2");
  const versions = page.getByTestId("guideline-versions").getByRole("listitem");
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText("Version 2");
  await expect(versions.nth(0)).toContainText(account("researcher").email);
  await expect(versions.nth(1)).toContainText("Version 1");
  await page.screenshot({ path: testInfo.outputPath("guidelines-edit-1440.png"), fullPage: true });

  // Annotator 1 labels from the page opened before the edit: version 1.
  const labelHere = async (p: Page, done: number) => {
    await expect(p.getByTestId("item-headline")).not.toHaveText("Loading…");
    await p.keyboard.press("w");
    await p.keyboard.press("t");
    await p.keyboard.press("Enter");
    await expect(p.getByTestId("progress")).toHaveText(new RegExp(`^${done} / 6 done`));
  };
  await labelHere(s1.page, 1);
  // Annotator 2 opens the queue after the edit: they read version 2 and their labels record it.
  const s2 = await annotatorPage(browser, a2);
  await s2.page.goto(`${base}/annotate/${id}`);
  await expect(s2.page.getByText("A follow-up question that narrows the need counts as help.").first()).toBeVisible();
  await labelHere(s2.page, 1);
  await labelHere(s2.page, 2);
  // Annotator 1 reloads: version 2 from now on.
  await s1.page.reload();
  await labelHere(s1.page, 2);

  const rows = read<{ email: string; v: number; n: number }>(
    "select u.email, l.guideline_version v, count(*) n from labels l join assignments a on a.id = l.assignment_id join users u on u.id = a.annotator_id where a.campaign_id = ? and l.dimension = 'requirement' group by u.email, v order by u.email, v",
    id,
  );
  expect(rows).toEqual(
    [
      { email: a1.email, v: 1, n: 1 },
      { email: a1.email, v: 2, n: 1 },
      { email: a2.email, v: 2, n: 2 },
    ].sort((x, y) => x.email.localeCompare(y.email) || x.v - y.v),
  );
  // `pal campaign export --format json`: each label's version.
  const cli = JSON.parse(pal("campaign", "export", "--campaign", String(id), "--format", "json"));
  expect(cli.labels.map((l: { version: number }) => l.version).sort()).toEqual([1, 1, 2, 2, 2, 2, 2, 2]);
  expect(cli.guidelineVersions.map((v: { version: number }) => v.version)).toEqual([1, 2]);

  // The agreement page splits by version.
  await page.goto(`${base}/campaigns/${id}`);
  await expect(page.getByTestId("agreement-age")).toHaveAttribute("data-state", "current", { timeout: 30_000 });
  const split = page.getByTestId("agreement-by-version");
  await expect(split.getByTestId("version-1-requirement")).toContainText("1");
  await expect(split.getByTestId("version-2-requirement")).toBeVisible();
  await split.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("agreement-by-version-1440.png") });
  await s1.ctx.close();
  await s2.ctx.close();
});

test("a crowd participant is refused the adjudication queue and the guidelines editor", async ({ browser }) => {
  const dir = e2eState().dir;
  fs.writeFileSync(path.join(dir, "adjudication-consent.md"), "Your answers are stored under a pseudonym.");
  const out = JSON.parse(
    pal(
      "campaign",
      "create",
      "--name",
      "Adjudication crowd (e2e)",
      "--kind",
      "pairwise-dialogue",
      "--items",
      PAIRWISE,
      "--k",
      "2",
      "--link",
      "--consent",
      path.join(dir, "adjudication-consent.md"),
      "--json",
    ),
  );
  const id = out.campaign.id as number;
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${e2eState().baseURL}${out.link}?PROLIFIC_PID=PIDadj0001&STUDY_ID=s&SESSION_ID=s1`);
  await page.getByLabel("I have read this and agree to take part.").check();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/work$/);
  allowConsoleErrors(pageStatus(403));
  for (const p of [`/campaigns/${id}/adjudicate`, `/campaigns/${id}/guidelines`])
    expect((await page.goto(`${e2eState().baseURL}${p}`))?.status(), p).toBe(403);
  await ctx.close();
});
