/**
 * `pal run --preset locomo|longmemeval` end to end: the real CLI against a temp database and the test
 * double over HTTP. Every built-in method of the preset answers every item after its memory is built; the
 * stored scores equal the public recipes recomputed from the stored outputs; the LongMemEval judge is
 * asked at temperature 0 with max_tokens 10 and read by "yes".
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { LOCOMO_DEMO, LONGMEMEVAL_CLEANED_DEMO, LONGMEMEVAL_DEMO } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { palResponder } from "@/test/h2memory-responder";
import { runPal } from "@/test/pal-cli";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { locomoQaScore } from "@/lib/metrics/locomo";

const text = (req: ChatRequest) => req.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
const MEMORY_Q = "You are a chat assistant with a memory of earlier conversations";
const JUDGE_CLOSE = "Reply with yes or no and nothing else.";

/** Answers: a few right, some half right, the rest not; judge: "Yes." when the response names the reference's key word. */
function responder(req: ChatRequest) {
  const t = text(req);
  if (t.includes(MEMORY_Q)) {
    if (t.includes("name of Ines's dog")) return "Pepper";
    if (t.includes("hobbies does Tomas")) return "pottery classes";
    if (t.includes("Choose one: (a)")) return t.includes("(a) Not mentioned") ? "(a)" : "b";
    if (t.includes("car do I drive now")) return "You drive a Mazda 3 hatchback now.";
    if (t.includes("motorbike")) return "You never mentioned a motorbike.";
    if (t.includes("How many bikes")) return "You own 3 bikes.";
    return "I am not sure.";
  }
  if (t.includes(JUDGE_CLOSE)) {
    const response = /Response: ([\s\S]*?)\n\n/.exec(t)?.[1] ?? "";
    return /Mazda|never mentioned|3 bikes/.test(response) ? "Yes." : "No";
  }
  return palResponder(req);
}

describe("pal run --preset locomo / longmemeval", () => {
  const t = tempDb();
  let fake: FakeOpenAI;
  const env = { PAL_MODEL_EMBEDDING: "embed-model" };
  beforeAll(async () => {
    fake = await startFakeOpenAI({});
    fake.setResponder(responder);
    await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc" });
    await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
    await importLongMemEval(t.db, { paths: [LONGMEMEVAL_CLEANED_DEMO], name: "lmec" });
  });
  afterAll(async () => {
    await fake.close();
    t.cleanup();
  });

  const jobsOf = (experimentId: number) => {
    const d = new Database(t.file, { readonly: true });
    try {
      return d
        .prepare(
          `SELECT j.method, j.item_key AS itemKey, j.status, j.output, j.score, s.scorer, s."values" AS v FROM jobs j
           LEFT JOIN job_scores s ON s.job_id = j.id WHERE j.experiment_id = ? ORDER BY j.id`,
        )
        .all(experimentId) as Array<{
        method: string;
        itemKey: string;
        score: number | null;
        status: string;
        output: string;
        scorer: string | null;
        v: string | null;
      }>;
    } finally {
      d.close();
    }
  };

  const METHODS = ["vanilla", "turn-rag", "session-rag", "recursum", "conditionmem", "memorybank", "ld-agent", "h2memory"];

  it("LoCoMo: every method answers every item; F1 equals the recipe on the stored output; evidence recall for the retrievers", async () => {
    const first = fake.chatRequests.length;
    const r = await runPal(t.file, fake.baseURL, ["run", "--preset", "locomo", "--dataset", "loc", "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // The preset's answer budget (evaluate_gpts.py: 32 tokens) on every answer, at temperature 0.
    const answers = fake.chatRequests.slice(first).filter((q) => text(q).includes(MEMORY_Q));
    expect(answers.length).toBeGreaterThan(0);
    for (const q of answers) expect([q.max_tokens, q.temperature]).toEqual([32, 0]);
    const rows = jobsOf(out.experiment);
    const jobs = new Map(rows.map((x) => [`${x.method}|${x.itemKey}`, x]));
    expect(jobs.size).toBe(METHODS.length * 10);
    expect(new Set(rows.map((x) => x.method))).toEqual(new Set(METHODS));
    expect(rows.every((x) => x.status === "done")).toBe(true);
    const items = t.db.$client.prepare("SELECT item_key AS k, category AS c, answer AS a FROM cm_qa").all() as Array<{
      k: string;
      c: number;
      a: string;
    }>;
    const byKey = new Map(items.map((i) => [i.k, i]));
    const f1 = rows.filter((x) => x.scorer === "locomo");
    expect(f1.length).toBe(METHODS.length * 10);
    for (const x of f1) {
      const it = byKey.get(x.itemKey)!;
      const answer = (JSON.parse(x.output) as { answer: string }).answer;
      expect(JSON.parse(x.v!).f1).toBeCloseTo(locomoQaScore(it.c, answer, it.a), 12);
      // The Items table's score (its sort and range filter): the item's QA score.
      expect(x.score).toBe(JSON.parse(x.v!).f1);
    }
    // Some right, some not: the scores are not all one value.
    const values = f1.map((x) => JSON.parse(x.v!).f1 as number);
    expect(values).toContain(1);
    expect(values).toContain(0);
    // Category 5: the letter replies were read as the options, and "Not mentioned" scores 1.
    const cat5 = f1.filter((x) => byKey.get(x.itemKey)!.c === 5);
    expect(cat5.every((x) => JSON.parse(x.output).answer === "Not mentioned in the conversation")).toBe(true);
    expect(cat5.every((x) => JSON.parse(x.v!).f1 === 1)).toBe(true);
    // Evidence recall only where the method retrieves dialogue.
    const ev = new Set(rows.filter((x) => x.scorer === "evidence").map((x) => x.method));
    expect(ev).toEqual(new Set(["turn-rag", "session-rag"]));
    const m = out.results.find((g: { method: string; task: string }) => g.method === "vanilla" && g.task === "locomo");
    expect(m.metrics["f1.cat4"]).toBeGreaterThan(0);
    expect(Object.keys(m.metrics)).toEqual(expect.arrayContaining(["f1", "f1.cat1", "f1.cat2", "f1.cat3", "f1.cat4", "f1.cat5"]));

    // The per-category table: one row per method, F1 × 100 by category.
    const md = await runPal(t.file, fake.baseURL, ["table", String(out.experiment), "--format", "markdown"], { env });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("LoCoMo question answering: F1 by category");
    expect(md.stdout).toMatch(/Cat\. 1[\s\S]*Cat\. 5[\s\S]*Overall/);
    expect(
      md.stdout.split("\n").filter((l) => /^\|\s*(\*\*)?(Vanilla|vanilla|Turn|turn|H2Memory|h2memory)/i.test(l)).length,
    ).toBeGreaterThanOrEqual(3);
    const csv = await runPal(t.file, fake.baseURL, ["table", String(out.experiment), "--format", "csv", "--table", "locomo-categories"], {
      env,
    });
    expect(csv.code, csv.stderr).toBe(0);
    // Category 5 answered "Not mentioned" by every method: 100 in every row.
    const cat5Rows = csv.stdout.split("\n").filter((l) => l.includes(",Cat. 5,"));
    expect(cat5Rows.length).toBe(METHODS.length);
    expect(cat5Rows.every((l) => l.includes(",Cat. 5,100,"))).toBe(true);

    // pal export experiment ID --items: one line per job, with the category and the scores.
    const ex = await runPal(t.file, fake.baseURL, ["export", "experiment", String(out.experiment), "--items"], { env });
    expect(ex.code, ex.stderr).toBe(0);
    const lines = ex.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(METHODS.length * 10);
    const dog = lines.find((l) => l.method === "turn-rag" && l.item === "conv-demo-1#0");
    expect(dog).toEqual({
      task: "locomo",
      method: "turn-rag",
      replicate: 0,
      item: "conv-demo-1#0",
      category: 4,
      question: "What is the name of Ines's dog?",
      output: "Pepper",
      reference: "Pepper",
      scores: { "locomo.f1": 1, "locomo.category": 4, "evidence.recall": expect.any(Number) },
    });
  }, 300_000);

  it("LongMemEval: the judge per type at temperature 0 and 10 tokens, 'yes' correct; retrieval scores without abstention", async () => {
    const before = fake.chatRequests.length;
    const r = await runPal(t.file, fake.baseURL, ["run", "--preset", "longmemeval", "--dataset", "lme", "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const rows = jobsOf(out.experiment);
    expect(new Set(rows.map((x) => `${x.method}|${x.itemKey}`)).size).toBe(METHODS.length * 5);
    const judged = fake.chatRequests.slice(before).filter((q) => text(q).includes(JUDGE_CLOSE));
    // The methods gave the same answers here: the same judge prompt is one paid call, the rest the cache's.
    expect(judged.length).toBe(5);
    for (const q of judged) {
      expect(q.temperature).toBe(0);
      expect(q.max_tokens ?? q.max_completion_tokens).toBe(10);
    }
    // One wording per type: the temporal and preference templates differ from the plain one.
    expect(judged.some((q) => text(q).includes("off by one"))).toBe(true);
    expect(judged.some((q) => text(q).includes("Rubric:"))).toBe(true);
    expect(judged.some((q) => text(q).includes("cannot be answered"))).toBe(true);
    const judge = rows.filter((x) => x.scorer === "judge");
    expect(judge.length).toBe(METHODS.length * 5);
    for (const x of judge) {
      const answer = (JSON.parse(x.output) as { answer: string }).answer;
      expect(JSON.parse(x.v!).correct).toBe(/Mazda|never mentioned/.test(answer) ? 1 : 0);
      // The Items table's score (its sort and range filter): the judge's verdict.
      expect(x.score).toBe(JSON.parse(x.v!).correct);
    }
    const retrieval = rows.filter((x) => x.scorer === "retrieval");
    expect(new Set(retrieval.map((x) => x.method))).toEqual(new Set(["turn-rag", "session-rag"]));
    expect(retrieval.some((x) => x.itemKey.endsWith("_abs"))).toBe(false);
    const g = out.results.find((x: { method: string; task: string }) => x.method === "vanilla" && x.task === "longmemeval");
    expect(g.metrics["accuracy.knowledge-update"]).toBe(1);
    expect(g.metrics["accuracy.abstention"]).toBe(1);
    expect(g.metrics["accuracy.temporal-reasoning"]).toBe(0);
    const tbl = await runPal(t.file, fake.baseURL, ["table", String(out.experiment), "--format", "latex", "--table", "longmemeval-types"], {
      env,
    });
    expect(tbl.code, tbl.stderr).toBe(0);
    expect(tbl.stdout).toContain("Knowledge upd.");
    expect(tbl.stdout).toContain("Task-avg.");
    expect(tbl.stdout).toContain("\\begin{tabular}");
    const ex = await runPal(t.file, fake.baseURL, ["export", "experiment", String(out.experiment), "--items"], { env });
    const ku = ex.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.method === "vanilla" && l.item === "q-demo-ku");
    expect(ku).toMatchObject({ task: "longmemeval", question_type: "knowledge-update", reference: "A Mazda 3 hatchback" });
    expect(ku.scores["judge.correct"]).toBe(1);
  }, 300_000);

  it("LongMemEval cleaned shape: abstention counted in its type and apart; no retrieval score without user-side evidence", async () => {
    const r = await runPal(
      t.file,
      fake.baseURL,
      ["run", "--preset", "longmemeval", "--dataset", "lmec", "--method", "vanilla,turn-rag,session-rag", "--json"],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const rows = jobsOf(out.experiment);
    expect(rows.filter((x) => x.scorer === "judge").length).toBe(3 * 4);
    // Retrieval: c-ssu and c-ms only; not the abstention question, not c-ssa (its has_answer turn is the assistant's).
    const retrieval = rows.filter((x) => x.scorer === "retrieval");
    expect(new Set(retrieval.map((x) => `${x.method}|${x.itemKey}`))).toEqual(
      new Set(["turn-rag|c-ssu", "turn-rag|c-ms", "session-rag|c-ssu", "session-rag|c-ms"]),
    );
    const g = out.results.find((x: { method: string; task: string }) => x.method === "vanilla" && x.task === "longmemeval");
    // c-ssu right (3 bikes), c-ssu_abs right (never mentioned), the other two wrong: as print_qa_metrics.py counts.
    expect(g.metrics["accuracy.single-session-user"]).toBe(1);
    expect(g.metrics["accuracy.abstention"]).toBe(1);
    expect(g.metrics["accuracy.single-session-assistant"]).toBe(0);
    expect(g.metrics["accuracy"]).toBe(0.5);
    // Task-averaged (print_qa_metrics.py): single-session-user 1, single-session-assistant 0, multi-session 0.
    expect(g.metrics["accuracy.taskAveraged"]).toBeCloseTo(1 / 3, 12);
  }, 300_000);
});
