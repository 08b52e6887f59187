import { test, expect, type Page } from "./fixtures";
import path from "node:path";
import { e2eState, login, account, type Account } from "./state";
import { annotateAll, annotatorPage } from "./annotate";
import { type FakeOpenAI } from "../test/fake-openai";
import { startNamedJudge } from "./named-judge";

/**
 * HiCUPID A/B/Tie by keyboard with blinding checked on every response, and an LLM judge run on a pairwise
 * campaign against the fake OpenAI-compatible server (a named judge configuration of its own, so that the
 * experiments spec's judge setting running beside it is untouched) whose Table 11 then counts its verdicts.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const JUDGE = "judge:e2e-campaign";
test.describe.configure({ mode: "serial" });

let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startNamedJudge(JUDGE, "e2e-campaign-judge");
});
test.afterAll(async () => {
  await fake.close();
});

function firstAnnotator(): Account {
  const a = e2eState().accounts.find((x) => x.role === "annotator");
  expect(a).toBeDefined();
  return a!;
}

async function createCampaign(page: Page, name: string, kind: string, file: string): Promise<number> {
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Kind").selectOption({ label: kind });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation", file));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: firstAnnotator().email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  return Number(page.url().split("/").pop());
}

test("HiCUPID A/B campaign: completed with A/B/T keys only; no model name in any response the annotator got", async ({ page, browser }) => {
  const id = await createCampaign(page, "HiCUPID e2e", "HiCUPID A/B/Tie", "hicupid-ab-demo.jsonl");
  const { ctx, page: ann, bodies } = await annotatorPage(browser, firstAnnotator());
  expect(await annotateAll(ann, id, () => ["a", "t"])).toBe(4);
  const all = await Promise.all(bodies);
  expect(all.length).toBeGreaterThan(8);
  for (const b of all) expect(b).not.toMatch(/demo-model|"reference"/);
  expect(await ann.content()).not.toContain("demo-model");
  await ctx.close();

  // The researcher sees the four votes in the Figure 2 layout.
  await page.goto(`${e2eState().baseURL}/campaigns/${id}`);
  await expect(page.getByTestId("figure2-personalization")).toContainText("Humans (n = 4)");
});

test("LLM judge on a pairwise campaign: estimate, run with live progress, Table 11 counts its verdicts", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const id = await createCampaign(page, "Pairwise judge e2e", "Pairwise dialogue judging", "pairwise-demo.jsonl");
  const { ctx, page: ann } = await annotatorPage(browser, firstAnnotator());
  // W on requirement, T on preference for every item (in the shown order).
  expect(await annotateAll(ann, id, () => ["w", "t"])).toBe(6);
  await ctx.close();

  await page.goto(`${e2eState().baseURL}/campaigns/${id}`);
  const panel = page.getByTestId("llm-judge");
  await panel.getByLabel("Judge configuration").selectOption(JUDGE);
  // The named judge has its own URL, no endpoint marked as serving the Batch API: ticking the batch box says so.
  await panel.getByLabel("Send as a batch").check();
  await expect(panel.getByTestId("batch-api-note")).toHaveText(
    "The judge's endpoint is not marked as supporting the Batch API (Admin → Models).",
  );
  await panel.screenshot({ path: test.info().outputPath("judge-panel-batch-note.png") });
  await panel.getByLabel("Send as a batch").uncheck();
  await expect(panel.getByTestId("batch-api-note")).toHaveCount(0);
  const before = fake.chatRequests.length;
  await panel.getByRole("button", { name: "Estimate calls" }).click();
  await expect(panel.getByTestId("llm-judge-estimate")).toContainText("12 verdicts to make over 6 items");
  await expect(panel.getByTestId("llm-judge-estimate")).toContainText("72 model calls");
  expect(fake.chatRequests.length).toBe(before); // an estimate spends nothing

  await panel.getByRole("button", { name: "Run judge" }).click();
  await expect(panel.getByTestId("llm-run-progress")).toHaveText(/12\/12 judged · complete/, { timeout: 60_000 });
  expect(fake.chatRequests.filter((r) => r.model === "e2e-campaign-judge").length).toBe(72);
  // The page re-renders with the judge beside the humans: h2memory wins preference every time.
  const table = page.locator("[data-testid^=judge-]").filter({ hasText: "LLM dialogue-pair" }).getByTestId("table11");
  await expect(table).toBeVisible({ timeout: 15_000 });
  // The agreement figures come from the background cache: reload until it holds all 12 verdicts.
  await expect
    .poll(
      async () => {
        await page.reload();
        const row = table.getByRole("row").filter({ hasText: /^Judge/ });
        const first = (await row.getByRole("cell").allTextContents())[1] ?? "";
        return first.split("/").reduce((n, x) => n + (Number(x.trim()) || 0), 0);
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toBe(6);
  const judgeRow = table.getByRole("row").filter({ hasText: /^Judge/ });
  await expect(judgeRow).toContainText(/\d \/ 0 \/ \d/);
  const cells = await judgeRow.getByRole("cell").allTextContents();
  // Requirement and preference: judge W / T / L over the 6 items, no ties (8 vs 5 in both orders).
  for (const c of cells.slice(1)) {
    const [w, t, l] = c.split("/").map((x) => Number(x.trim()));
    expect(w + t + l).toBe(6);
    expect(t).toBe(0);
  }
  // The humans called every preference a tie: each item is a disagreement, and its page shows the six judgments.
  await table.getByRole("row").filter({ hasText: "Disagreements" }).getByRole("link").first().click();
  await page.waitForURL(/\/items\/\d+$/);
  const judged = page.locator("section").filter({ hasText: "Preference understanding" });
  await judged.getByText("6 judgments (both orders)").click();
  const rows = judged.getByTestId("judgments").locator("tbody tr");
  await expect(rows).toHaveCount(6);
  await expect(rows.filter({ hasText: /^A/ })).toHaveCount(3);
});

test("pairwise campaign from an experiment's dialogues: offered on the form, systems linked, names never reach the annotator", async ({
  page,
  browser,
}) => {
  // Two methods' finished dialogues on two topics, stored as the experiments engine stores a job's output.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  const ds = db.prepare("select id from datasets where name = 'PAL-Set demo (en)'").get() as { id: number };
  const topics = db
    .prepare(
      `select u.user_key || '/' || s.sample_key || '/' || t.topic_key as k from pal_topics t join pal_samples s on s.id = t.sample_id
       join pal_users u on u.id = s.user_id where s.dataset_id = ? and s.split = 'query' order by u.position, s.seq, t.position limit 2`,
    )
    .all(ds.id) as Array<{ k: string }>;
  expect(topics).toHaveLength(2);
  const exp = db
    .prepare(
      "insert into experiments (name, dataset_id, dataset_hash, config, config_hash, status) values ('E2E dialogue experiment', ?, 'h', '{}', 'c', 'done') returning id",
    )
    .get(ds.id) as { id: number };
  const job = db.prepare(
    "insert into jobs (experiment_id, method, task, item_key, status, output) values (?, ?, 'dialogue', ?, 'done', ?)",
  );
  for (const { k } of topics) {
    for (const m of ["h2memory", "vanilla-log"]) {
      const dialogue = [
        { role: "user", content: `Help me with ${k}.` },
        { role: "assistant", content: `Answer from the ${m === "h2memory" ? "first" : "second"} system.` },
      ];
      job.run(exp.id, m, k, JSON.stringify({ template: {}, dialogue }));
    }
  }
  db.close();

  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill("From experiment e2e");
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("PAL Studio experiment").check();
  await page.getByLabel(/^Experiment/).selectOption({ label: `#${exp.id} E2E dialogue experiment` });
  await page.getByLabel("Method (side A)").selectOption("h2memory");
  await page.getByLabel("Method (side B)").selectOption("vanilla-log");
  // Methods read by their display names, and runs are counted from 1, as on the experiment pages.
  await expect(page.getByLabel("Method (side A)").locator("option:checked")).toHaveText("H2Memory");
  await expect(page.getByLabel("Method (side B)").locator("option:checked")).toHaveText("Vanilla + logs");
  await expect(page.getByLabel("Run", { exact: true })).toHaveValue("1");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("campaign-from-experiment.png") });
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: firstAnnotator().email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());
  await expect(page.getByText(/A = H2Memory, B = Vanilla \+ logs/)).toBeVisible();

  const { ctx, page: ann, bodies } = await annotatorPage(browser, firstAnnotator());
  // The user's information reads as labelled text (issue 26, item 4): Background and Personality were JSON here.
  await ann.goto(`${e2eState().baseURL}/annotate/${id}`);
  const info = ann.getByTestId("user-info");
  await expect(info).toContainText("Background");
  await expect(info).toContainText("Personality");
  await expect(info).toContainText("Situation");
  expect(await info.innerText()).not.toContain('{"');
  expect(await info.innerText()).not.toMatch(/^\s*[{[]/m);
  await ann.screenshot({ path: test.info().outputPath("pairwise-queue-user-info.png") });
  expect(await annotateAll(ann, id, () => ["w", "l"])).toBe(2);
  for (const b of await Promise.all(bodies)) expect(b).not.toMatch(/h2memory|vanilla-log|E2E dialogue experiment/);
  await ctx.close();

  // The researcher's item page reads the topic and links to the experiment's compare view of it (issue 26, item 5).
  await page.goto(`${e2eState().baseURL}/campaigns/${id}?items=all`);
  const table = page.getByTestId("items-table");
  await expect(table).toContainText("humans: ");
  await expect(table).not.toContainText(topics[0].k);
  await table.getByRole("link").first().click();
  await expect(page.getByTestId("item-source")).toContainText(`#${exp.id} E2E dialogue experiment`);
  await page.getByTestId("item-source").getByRole("link", { name: "compare view" }).click();
  await page.waitForURL(/\/experiments\/\d+\/compare\?task=dialogue&item=/);
  await expect(page.getByText("Answer from the first system.").first()).toBeVisible();
});
