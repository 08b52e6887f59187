import { test, expect, type Page } from "./fixtures";
import path from "node:path";
import { e2eState, pal, type Account } from "./state";
import { annotateAll, annotatorPage, createCampaign as createCampaignFor } from "./annotate";

const ROOT = path.resolve(import.meta.dirname, "..");
const SYSTEM_NAMES = /h2memory|vanilla/i;

test.describe.configure({ mode: "serial" });

function annotators(): Account[] {
  const a = e2eState().accounts.filter((x) => x.role === "annotator");
  expect(a.length).toBeGreaterThanOrEqual(2);
  return a.slice(0, 2);
}

/** Exactly the two demo annotators (other specs may have added accounts to the shared database). */
const createCampaign = (page: Page, opts: Parameters<typeof createCampaignFor>[1]) => createCampaignFor(page, opts, annotators());

test("pairwise campaign: two annotators complete it with the keyboard, blinded; the dashboard shows their kappa", async ({
  page,
  browser,
}) => {
  const id = await createCampaign(page, {
    name: "Pairwise e2e",
    kind: "Pairwise dialogue judging",
    file: path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"),
    k: "2",
  });
  const [a1, a2] = annotators();
  const s1 = await annotatorPage(browser, a1);
  const s2 = await annotatorPage(browser, a2);
  await expect(s1.page).toHaveURL(/\/annotate$/);
  // Annotator 1: W then T on every item; annotator 2 alternates, so they agree on some items only.
  const n1 = await annotateAll(s1.page, id, () => ["w", "t"]);
  const n2 = await annotateAll(s2.page, id, (i) => (i % 2 ? ["l", "t"] : ["w", "w"]));
  expect(n1).toBe(6);
  expect(n2).toBe(6);
  await s1.page.keyboard.press("?");
  await expect(s1.page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();

  // Blinding: no system name in any page or response an annotator received.
  for (const s of [s1, s2]) {
    expect(await s.page.content()).not.toMatch(SYSTEM_NAMES);
    const all = await Promise.all(s.bodies);
    expect(all.length).toBeGreaterThan(10);
    for (const b of all) expect(b).not.toMatch(SYSTEM_NAMES);
  }

  // Neither reads nor writes the other's assignment, whatever id is sent.
  const db = await import("better-sqlite3").then((m) => new m.default(e2eState().dbPath, { readonly: true }));
  const otherId = (
    db
      .prepare("select a.id from assignments a join users u on u.id = a.annotator_id where a.campaign_id = ? and u.email = ? limit 1")
      .get(id, a2.email) as { id: number }
  ).id;
  const before = db.prepare("select value, shown_value from labels where assignment_id = ? order by dimension").all(otherId);
  const get = await s1.page.request.get(`${e2eState().baseURL}/api/assignments/${otherId}`);
  expect(get.status()).toBe(404);
  // Same-origin requests (the CSRF guard would refuse others first): ownership is what answers here.
  const origin = { origin: e2eState().baseURL };
  const post = await s1.page.request.post(`${e2eState().baseURL}/api/assignments/${otherId}`, {
    headers: origin,
    data: { action: "submit", submissionId: "attack-000001", values: { requirement: "Lose", preference: "Lose" } },
  });
  expect(post.status()).toBe(404);
  const patch = await s1.page.request.patch(`${e2eState().baseURL}/api/assignments/${otherId}`, {
    headers: origin,
    data: { draft: { values: { requirement: "Lose" } } },
  });
  expect(patch.status()).toBe(404);
  expect(db.prepare("select value, shown_value from labels where assignment_id = ? order by dimension").all(otherId)).toEqual(before);
  expect(await (await s1.page.request.get(`${e2eState().baseURL}/api/campaigns/${id}/export?format=json`)).status()).toBe(403);
  db.close();

  // The dashboard shows the kappa, the same number the CLI prints.
  const cli = JSON.parse(pal("metrics", "agreement", "--campaign", String(id), "--json"));
  const kappa = cli.dimensions[0].report.cohen[0].kappa as number | null;
  await page.goto(`${e2eState().baseURL}/campaigns/${id}`);
  await expect(page.getByTestId("requirement-cohen-0")).toContainText(kappa === null ? "—" : kappa.toFixed(3));
  await expect(page.getByTestId("progress-table")).toContainText(a1.email);
  // The researcher does see which system is which.
  await expect(page.getByText(/A = H2Memory/)).toBeVisible();
  await s1.ctx.close();
  await s2.ctx.close();
});

test("session-quality campaign: two annotators rate logs and dialogue 1–3; the dashboard shows the means", async ({ page, browser }) => {
  const id = await createCampaign(page, {
    name: "Quality e2e",
    kind: "Session quality rating (PAL-Set)",
    users: "1",
    sessions: "2",
    k: "2",
  });
  const [a1, a2] = annotators();
  const s1 = await annotatorPage(browser, a1);
  const s2 = await annotatorPage(browser, a2);
  // The Situation sits beside the logs it is judged against (issue 26, item 4): with the logs on screen, the
  // situation is too, at the same height; the profile is labelled text.
  await s1.page.setViewportSize({ width: 1440, height: 900 });
  await s1.page.goto(`${e2eState().baseURL}/annotate/${id}`);
  const logsPane = s1.page.getByRole("region", { name: /^Logs \(\d+\)/ });
  const situation = s1.page.getByRole("region", { name: /^Situation/ });
  await expect(situation).toBeVisible();
  expect(await s1.page.getByTestId("user-info").innerText()).not.toContain('{"');
  await logsPane.scrollIntoViewIfNeeded();
  await expect(situation).toBeInViewport();
  const [sb, lb] = [await situation.boundingBox(), await logsPane.boundingBox()];
  expect(Math.abs(sb!.y - lb!.y)).toBeLessThan(2); // side by side, one row
  expect(sb!.x + sb!.width).toBeLessThanOrEqual(lb!.x);
  await s1.page.screenshot({ path: test.info().outputPath("session-rating-situation.png") });
  const n = await annotateAll(s1.page, id, () => ["3", "2"]);
  await annotateAll(s2.page, id, () => ["3", "3"]);
  expect(n).toBe(2);
  await page.goto(`${e2eState().baseURL}/campaigns/${id}`);
  await expect(page.getByTestId("logs-mean")).toHaveText("3.00");
  // The verdict-import hint shows a rating line for a 1–3 campaign, not a pairwise one (issue 26, item 5).
  await expect(page.getByTestId("verdict-example")).toContainText('"verdict": "3"');
  await expect(page.getByTestId("verdict-example")).not.toContainText("scoreA");
  await expect(page.getByTestId("dialogue-mean")).toHaveText("2.50");
  await expect(page.getByTestId("logs-percentAgreement")).toHaveText("1.000");
  // Two items: the estimate alone, no interval (issue 44.4).
  await expect(page.getByTestId("logs-percentAgreement-ci")).toHaveText("too few items for an interval (n = 2 < 10)");
  await s1.ctx.close();
  await s2.ctx.close();
});
