/**
 * Issue 42: LoCoMo and LongMemEval data sets in the browser, imported with the CLI into the server's
 * database: their counts, the conversations / questions searched by question text, a conversation with
 * its QA and evidence turns, a LongMemEval haystack in date order.
 */
import { test, expect } from "./fixtures";
import Database from "better-sqlite3";
import { e2eState, login, account, pal } from "./state";
import { LOCOMO_DEMO, LONGMEMEVAL_DEMO } from "../test/fixtures";
import { annotatorPage, createCampaign } from "./annotate";

const url = (p: string) => `${e2eState().baseURL}${p}`;

function datasetId(name: string): number | null {
  const db = new Database(e2eState().dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("select id from datasets where name = ?").get(name) as { id: number } | undefined)?.id ?? null;
  } finally {
    db.close();
  }
}

function ensureImported(): { loc: number; lme: number } {
  if (datasetId("e2e LoCoMo") === null) pal("import", "locomo", LOCOMO_DEMO, "--name", "e2e LoCoMo");
  if (datasetId("e2e LongMemEval") === null) pal("import", "longmemeval", LONGMEMEVAL_DEMO, "--name", "e2e LongMemEval");
  return { loc: datasetId("e2e LoCoMo")!, lme: datasetId("e2e LongMemEval")! };
}

test("a LoCoMo data set: conversations, search by question, a conversation's QA with evidence turns", async ({ page }) => {
  const { loc } = ensureImported();
  await login(page, account("researcher"));
  await page.goto(url(`/datasets/${loc}`));
  await expect(page.getByRole("heading", { level: 1, name: "e2e LoCoMo" })).toBeVisible();
  const counts = page.getByTestId("dataset-counts");
  await expect(counts).toContainText("Conversations");
  await expect(counts).toContainText("10"); // QA items
  await expect(page.getByRole("heading", { name: "Conversations" })).toBeVisible();
  const table = page.getByTestId("users-table");
  await expect(table.getByRole("link", { name: "conv-demo-1" })).toBeVisible();
  await table.getByLabel(/Find conversation/).fill("instrument");
  await expect(table.getByRole("link", { name: "conv-demo-2" })).toBeVisible();
  await expect(table.getByRole("link", { name: "conv-demo-1" })).toHaveCount(0);

  await page.goto(url(`/datasets/${loc}/users/conv-demo-1`));
  await expect(page.getByRole("heading", { level: 1, name: "Conversation conv-demo-1" })).toBeVisible();
  await expect(page.getByTestId("cm-qa").getByRole("listitem")).toHaveCount(6);
  await expect(page.getByText("not answerable (adversarial answer: a blue vase)")).toBeVisible();
  await expect(page.getByTestId("cm-session")).toHaveCount(2);
  // Evidence of the QA items (D1:1, D1:2, D1:3, D1:4, D2:1) outlined in the sessions.
  await expect(page.getByTestId("evidence-turn")).toHaveCount(5);
  await page.getByRole("link", { name: "D2:1" }).first().click();
  await expect(page).toHaveURL(/#turn-D2-1$/);
});

test("a LongMemEval question: its haystack in date order with the answer turns marked", async ({ page }) => {
  const { lme } = ensureImported();
  await login(page, account("researcher"));
  await page.goto(url(`/datasets/${lme}`));
  await expect(page.getByTestId("dataset-counts")).toContainText("Distinct sessions");
  await expect(page.getByRole("heading", { name: "Questions" })).toBeVisible();
  await page.getByTestId("users-table").getByRole("link", { name: "q-demo-ku" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Question q-demo-ku" })).toBeVisible();
  await expect(page.getByText("knowledge-update")).toBeVisible();
  const sessions = page.getByTestId("cm-session");
  await expect(sessions).toHaveCount(4);
  await expect(sessions.locator("h3")).toHaveText(["1. sharegpt_f1_0", "2. answer_car_1", "3. ultrachat_f3_0", "4. answer_car2_1"]);
  await expect(page.getByTestId("evidence-turn")).toHaveCount(2);
});

test("an answer-correctness campaign from `pal export --items` lines: the annotator sees question, reference and answer (1440 and 390 px)", async ({
  page,
  browser,
}) => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const file = path.join(e2eState().dir, "answers.jsonl");
  fs.writeFileSync(
    file,
    [
      {
        task: "locomo",
        method: "turn-rag",
        replicate: 0,
        item: "conv-demo-1#0",
        category: 4,
        question: "What is the name of Ines's dog?",
        output: "Pepper",
        reference: "Pepper",
        scores: { "locomo.f1": 1 },
      },
      {
        task: "locomo",
        method: "vanilla",
        replicate: 0,
        item: "conv-demo-1#1",
        category: 2,
        question: "When did Ines adopt her dog?",
        output: "In March",
        reference: "The weekend before 3 March 2023",
        scores: { "locomo.f1": 0 },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  const annotator = account("annotator");
  const id = await createCampaign(page, { name: `E2E answers ${Date.now()}`, kind: "Answer correctness", file, k: "1" }, [annotator]);
  const s = await annotatorPage(browser, annotator);
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await s.page.setViewportSize(size);
    await s.page.goto(url(`/annotate/${id}`));
    await expect(s.page.getByText("Reference answer", { exact: true })).toBeVisible();
    await expect(s.page.getByText("The assistant's answer", { exact: true })).toBeVisible();
    await expect(s.page.getByText("turn-rag")).toHaveCount(0); // the method never reaches the annotator
    await s.page.screenshot({ path: test.info().outputPath(`answer-correctness-${size.width}.png`) });
    if (process.env.PAL_SHOTS)
      fs.copyFileSync(
        test.info().outputPath(`answer-correctness-${size.width}.png`),
        path.join(process.env.PAL_SHOTS, `answer-correctness-${size.width}.png`),
      );
  }
  await s.page.setViewportSize({ width: 1440, height: 900 });
  const progress = s.page.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ 2 done/);
  await s.page.keyboard.press("3");
  await s.page.keyboard.press("Enter");
  await expect(progress).toHaveText(/^1 \/ 2 done/);
  await s.ctx.close();
});

/** A finished LoCoMo experiment on the e2e data set, its jobs as the engine stores them (answers and retrieved context). */
function seedLocomoExperiment(name: string): number {
  const { loc } = ensureImported();
  const db = new Database(e2eState().dbPath);
  try {
    const exp = db
      .prepare(
        "insert into experiments (name, dataset_id, dataset_hash, config, config_hash, status) values (?, ?, 'h', ?, 'c', 'done') returning id",
      )
      .get(name, loc, JSON.stringify({ methods: [{ name: "turn-rag" }, { name: "session-rag" }], tasks: ["locomo"] })) as { id: number };
    const job = db.prepare(
      "insert into jobs (experiment_id, method, task, item_key, user_key, status, output, retrieved) values (?, ?, 'locomo', ?, 'conv-demo-1', 'done', ?, ?)",
    );
    // Item 2 asks for Tomas's hobbies (evidence D1:2 and D2:1): turn-rag held D1:2 (turn 1's reply), session-rag session 2.
    const answers: Record<string, string[]> = {
      "turn-rag": ["Pepper", "Last weekend", "pottery"],
      "session-rag": ["Pepper", "In March", "running"],
    };
    const retrieved: Record<string, unknown[]> = {
      "turn-rag": [
        {
          kind: "utterance",
          key: "0:turn_1:assistant",
          text: "That's great news! I have been busy with my pottery class on Tuesdays.",
          score: 0.9,
        },
      ],
      "session-rag": [{ kind: "session", key: "session_2", text: "(session 2)", score: 0.8 }],
    };
    for (const m of ["turn-rag", "session-rag"])
      answers[m].forEach((a, i) => job.run(exp.id, m, `conv-demo-1#${i}`, JSON.stringify({ answer: a }), JSON.stringify(retrieved[m])));
    return exp.id;
  } finally {
    db.close();
  }
}

test("an answer-correctness campaign straight from a LoCoMo experiment: one method's answers, the method never shown (1440 and 390 px)", async ({
  page,
  browser,
}) => {
  const exp = seedLocomoExperiment("E2E LoCoMo experiment");
  const annotator = account("annotator");
  await login(page, account("researcher"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url("/campaigns/new"));
  await page.getByLabel("Name").fill(`E2E LoCoMo answers ${Date.now()}`);
  await page.getByLabel("Kind").selectOption({ label: "Answer correctness" });
  await page.getByLabel("PAL Studio experiment").check();
  await page.getByLabel(/^Experiment/).selectOption({ label: `#${exp} E2E LoCoMo experiment` });
  await page.getByLabel("Method (side A)").selectOption("turn-rag");
  await expect(page.getByLabel("Method (side B)")).toHaveCount(0);
  await expect(page.getByText("A method's answers to the benchmark's questions, each beside its reference")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("answer-campaign-from-experiment.png") });
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: annotator.email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());

  const s = await annotatorPage(browser, annotator);
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await s.page.setViewportSize(size);
    await s.page.goto(url(`/annotate/${id}`));
    await expect(s.page.getByText("Reference answer", { exact: true })).toBeVisible();
    await expect(s.page.getByText("The assistant's answer", { exact: true })).toBeVisible();
    await s.page.screenshot({ path: test.info().outputPath(`answer-campaign-annotator-${size.width}.png`) });
  }
  await s.page.setViewportSize({ width: 1440, height: 900 });
  const progress = s.page.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ 3 done/);
  await s.page.keyboard.press("3");
  await s.page.keyboard.press("Enter");
  await expect(progress).toHaveText(/^1 \/ 3 done/);
  // Nothing the annotator's browser received names the method or the experiment.
  for (const b of await Promise.all(s.bodies)) expect(b).not.toMatch(/turn-rag|session-rag|E2E LoCoMo experiment/);
  await s.ctx.close();
});

test("two methods' LoCoMo answers side by side with the evidence turns highlighted and who retrieved them", async ({ page }) => {
  const exp = seedLocomoExperiment("E2E LoCoMo compare");
  await login(page, account("researcher"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url(`/experiments/${exp}/compare?task=locomo&item=${encodeURIComponent("conv-demo-1#2")}&m=turn-rag&m=session-rag`));
  await expect(page.getByTestId("compare-columns")).toContainText("pottery");
  await expect(page.getByTestId("compare-columns")).toContainText("running");
  const panel = page.getByTestId("evidence-panel");
  await expect(panel).toContainText("The item's evidence: D1:2, D2:1.");
  await expect(panel.getByTestId("evidence-session")).toHaveCount(2);
  const evidence = panel.getByTestId("evidence-turn");
  await expect(evidence).toHaveCount(2);
  await expect(evidence.filter({ hasText: "D1:2" })).toContainText("retrieved by Turn-level RAG");
  await expect(evidence.filter({ hasText: "D1:2" })).not.toContainText("Session-level RAG");
  await expect(evidence.filter({ hasText: "D2:1" })).toContainText("retrieved by Session-level RAG");
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("compare-evidence.png"), fullPage: true });

  // The Figure 4 export of the two columns carries the evidence block; its preview is the SVG itself.
  await page.getByTestId("figure-link").click();
  await page.waitForURL(/\/figure\?/);
  const preview = page.getByTestId("figure-preview");
  await expect(preview).toBeVisible();
  const svg = await (await page.request.get(new URL((await preview.getAttribute("src"))!, page.url()).toString())).text();
  expect(svg).toContain(">Evidence<");
  // (a line of the SVG wraps: its start is one run of text)
  expect(svg).toContain("D1:2 Tomas:");
  expect(svg).toContain("D2:1 Tomas:");
  await expect(page.getByRole("checkbox", { name: "Evidence turns (LoCoMo, LongMemEval)" })).toBeChecked();
  await page.screenshot({ path: test.info().outputPath("figure-evidence.png") });
});
