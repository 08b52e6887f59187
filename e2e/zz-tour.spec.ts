import path from "node:path";
import Database from "better-sqlite3";
import { test, expect, type Page } from "./fixtures";
import { e2eState, login, account } from "./state";

const OUT = "/work/helpers/shots";
const ROOT = "/work/wt/walkthrough";
let n = 0;
async function shot(page: Page, name: string, full = false) {
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.waitForTimeout(400);
  n++;
  await page.screenshot({ path: path.join(OUT, `walkthrough-${String(n).padStart(2, "0")}-${name}.png`), fullPage: full });
}
const q = <T>(sql: string, ...a: unknown[]) => {
  const db = new Database(e2eState().dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...a) as T[];
  } finally {
    db.close();
  }
};
const base = () => e2eState().baseURL;
test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ mode: "serial" });

test("annotator", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const ann = e2eState().accounts.find((a) => a.role === "annotator")!;
  // Fresh campaigns for the annotator: pairwise and session-quality.
  await login(page, account("researcher"));
  const mk = async (name: string, kind: string, file?: string) => {
    await page.goto(`${base()}/campaigns/new`);
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Kind").selectOption({ label: kind });
    if (file) await page.getByLabel("Items file").setInputFiles(file);
    else {
      await page.getByLabel("PAL-Set data set").selectOption({ label: "PAL-Set demo (en)" });
      await page.getByLabel("Users", { exact: true }).fill("1");
      await page.getByLabel("Sessions per user").fill("2");
    }
    await page.getByRole("checkbox", { name: ann.email }).check();
    await page.getByLabel("Annotations per item (k)").fill("1");
    if (n === 0) await shot(page, "researcher-campaign-form");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    return Number(page.url().split("/").pop());
  };
  const pw = await mk(
    `Walk pairwise ${Date.now()}`,
    "Pairwise dialogue judging",
    path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"),
  );
  const sq = await mk(`Walk quality ${Date.now()}`, "Session quality rating (PAL-Set)");
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const a = await ctx.newPage();
  await login(a, ann);
  await a.goto(`${base()}/annotate`);
  await shot(a, "annotator-queue");
  await a.goto(`${base()}/annotate/${pw}`);
  await expect(a.getByTestId("item-headline")).not.toHaveText("Loading…");
  await shot(a, "annotator-pairwise-item");
  await shot(a, "annotator-pairwise-item-full", true);
  await a.goto(`${base()}/annotate/${sq}`);
  await expect(a.getByTestId("item-headline")).not.toHaveText("Loading…");
  await shot(a, "annotator-rating-item");
  await shot(a, "annotator-rating-item-full", true);
  for (let i = 0; i < 2; i++) {
    await expect(a.getByTestId("item-headline")).not.toHaveText("Loading…");
    if (i === 1) {
      await a.keyboard.press("s");
      await a.getByLabel("Skip reason").fill("too short");
      await a.keyboard.press("Enter");
      continue;
    }
    await a.keyboard.press("3");
    await a.keyboard.press("2");
    await a.keyboard.press("Enter");
  }
  await expect(a.getByTestId("completion")).toBeVisible();
  await shot(a, "annotator-completion");
  await a.goto(`${base()}/annotate`);
  await shot(a, "annotator-queue-after");
});

test("researcher", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page, account("researcher"));
  const [{ id: en }] = q<{ id: number }>("select id from datasets where name = 'PAL-Set demo (en)'");
  await page.goto(`${base()}/datasets`);
  await shot(page, "researcher-datasets");
  await page.goto(`${base()}/datasets/${en}`);
  await shot(page, "researcher-dataset");
  await page.goto(`${base()}/datasets/${en}/users/0000`);
  await shot(page, "researcher-user");
  await shot(page, "researcher-user-full", true);
  await page.goto(`${base()}/datasets/${en}/users/0000/sessions/0000_sample1`);
  await shot(page, "researcher-session");
  await shot(page, "researcher-session-full", true);
  await page.goto(`${base()}/experiments`);
  await shot(page, "researcher-experiments");
  await shot(page, "researcher-experiments-full", true);
  const exps = q<{ id: number; name: string; config: string }>("select id, name, config from experiments order by id");
  console.log(exps.map((e) => `${e.id} ${e.name} ${e.config}`).join("\n"));
  const three = exps.filter((e) => e.config.includes("turn-rag")).pop() ?? exps[exps.length - 1];
  await page.goto(`${base()}/experiments/${three.id}`);
  await shot(page, "researcher-experiment");
  await shot(page, "researcher-experiment-full", true);
  const jobs = q<{ id: number; task: string; method: string }>(
    "select id, task, method from jobs where experiment_id = ? order by id",
    three.id,
  );
  const dlg = jobs.find((j) => j.task === "dialogue" && !j.method.includes("~")) ?? jobs[0];
  const req = jobs.find((j) => j.task === "requirement") ?? jobs[0];
  await page.goto(`${base()}/experiments/${three.id}/jobs/${dlg.id}`);
  await shot(page, "researcher-item-dialogue");
  await shot(page, "researcher-item-dialogue-full", true);
  const cmp = page.getByRole("link", { name: "Compare methods on this topic" });
  await page.goto(`${base()}/experiments/${three.id}/jobs/${req.id}`);
  await shot(page, "researcher-item-answer");
  await page.goto(`${base()}/experiments/${three.id}/jobs/${dlg.id}`);
  if (await cmp.count()) {
    await cmp.click();
    await page.waitForURL(/compare/);
    await shot(page, "researcher-compare");
    await shot(page, "researcher-compare-full", true);
  }
  await page.goto(`${base()}/experiments/${three.id}/case-studies`);
  await shot(page, "researcher-case-studies");
  await page.goto(`${base()}/memory`);
  await shot(page, "researcher-memory");
  await shot(page, "researcher-memory-full", true);
  const versions = q<{ id: number; method: string }>("select id, method from memory_versions order by id");
  console.log(JSON.stringify(versions));
  for (const m of ["h2memory", "memorybank"]) {
    const v = versions.find((x) => x.method === m);
    if (v) {
      await page.goto(`${base()}/memory/${v.id}`);
      await shot(page, `researcher-memory-inspector-${m}`);
      await shot(page, `researcher-memory-inspector-${m}-full`, true);
    }
  }
  await page.goto(`${base()}/experiments/protocol`);
  await shot(page, "researcher-protocol");
});

test("pi", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page, account("admin"));
  await page.goto(`${base()}/admin/models`);
  await shot(page, "pi-models");
  await shot(page, "pi-models-full", true);
  await page.goto(`${base()}/campaigns`);
  await shot(page, "pi-campaigns");
  const camps = q<{ id: number; name: string; kind: string }>("select id, name, kind from campaigns order by id");
  console.log(JSON.stringify(camps));
  const judged = q<{ campaign_id: number }>("select distinct campaign_id from judge_runs").map((r) => r.campaign_id);
  for (const c of camps.filter((c) => judged.includes(c.id)).slice(-2)) {
    await page.goto(`${base()}/campaigns/${c.id}`);
    await shot(page, `pi-campaign-${c.id}`);
    await shot(page, `pi-campaign-${c.id}-full`, true);
  }
  await page.goto(`${base()}/agreement`);
  await shot(page, "pi-agreement");
  await shot(page, "pi-agreement-full", true);
  await page.goto(`${base()}/admin/users`);
  await shot(page, "pi-users");
});
