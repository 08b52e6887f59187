/**
 * Issue 42: LoCoMo and LongMemEval data sets in the browser, imported with the CLI into the server's
 * database: their counts, the conversations / questions searched by question text, a conversation with
 * its QA and evidence turns, a LongMemEval haystack in date order.
 */
import { test, expect } from "./fixtures";
import Database from "better-sqlite3";
import { e2eState, login, account, pal } from "./state";
import { LOCOMO_DEMO, LONGMEMEVAL_DEMO } from "../test/fixtures";

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
