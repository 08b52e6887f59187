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
  const id = await createCampaign(page, { name: `E2E answers ${Date.now()}`, kind: "Answer correctness", file, k: "1" }, [
    annotator,
  ]);
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
