/** LongMemEval's retrieval scores against a Python reference of eval_utils.py; the judge's templates and decision; the metrics. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lmeJudgeMessages, lmeYes } from "@/lib/judges/longmemeval";
import { retrievalAt } from "./retrieval";
import { convMetrics } from "./scores";
import { cat5Options, readCat5 } from "./task";

describe("LongMemEval retrieval (eval_utils.py)", () => {
  it("recall_any, recall_all and NDCG equal a Python reference of the recipe", () => {
    // A corpus of ids; the method's ranking lists only what it retrieved (the rest of the corpus after it).
    const corpus = ["s1", "answer_a", "s2", "answer_b", "s3", "s4", "answer_c"];
    const cases = [
      { ranking: [1, 0, 3, 2, 4, 5, 6], correct: ["answer_a", "answer_b"], k: 3 },
      { ranking: [0, 2, 3, 1, 4, 5, 6], correct: ["answer_a", "answer_b"], k: 3 },
      { ranking: [0, 2, 4, 5, 1, 3, 6], correct: ["answer_a", "answer_b", "answer_c"], k: 2 },
      { ranking: [6, 5, 4, 3, 2, 1, 0], correct: ["answer_c"], k: 1 },
      { ranking: [0, 6, 1, 2, 3, 4, 5], correct: ["answer_a", "answer_c"], k: 5 },
    ].map((c) => ({ corpus, ...c }));
    const r = spawnSync("python3", [path.join(import.meta.dirname, "retrieval_reference.py")], {
      input: JSON.stringify(cases),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.stderr).toBe("");
    const want = JSON.parse(r.stdout) as number[][];
    cases.forEach((c, i) => {
      const got = retrievalAt(
        c.ranking.map((j) => corpus[j]),
        new Set(c.correct),
        c.correct.length,
        c.k,
      );
      expect([got.recallAny, got.recallAll]).toEqual([want[i][0], want[i][1]]);
      expect(got.ndcg).toBeCloseTo(want[i][2], 12);
    });
    expect(want.some((w) => w[2] > 0 && w[2] < 1)).toBe(true);
  });
});

describe("LongMemEval judge", () => {
  const base = { question: "Q?", reference: "R", response: "A", abstention: false };
  it("one template per question type, with the question, reference and response", () => {
    const types = ["single-session-user", "temporal-reasoning", "knowledge-update", "single-session-preference"];
    const texts = types.map((questionType) => String(lmeJudgeMessages({ ...base, questionType })[0].content));
    expect(new Set(texts).size).toBe(4);
    for (const t of texts) expect(t).toMatch(/Question: Q\?[\s\S]*: R\n\nResponse: A/);
    expect(texts[1]).toContain("off by one");
    expect(texts[2]).toContain("updated one");
    expect(texts[3]).toContain("Rubric: R");
    expect(lmeJudgeMessages({ ...base, questionType: "multi-session" })).toEqual(
      lmeJudgeMessages({ ...base, questionType: "single-session-assistant" }),
    );
    const abs = String(lmeJudgeMessages({ ...base, questionType: "temporal-reasoning", abstention: true })[0].content);
    expect(abs).toContain("cannot be answered");
    expect(() => lmeJudgeMessages({ ...base, questionType: "other" })).toThrow(/no template/);
  });

  it("correct when the reply contains yes, in any case", () => {
    expect([lmeYes("Yes."), lmeYes("yes"), lmeYes("YES, it is"), lmeYes("No"), lmeYes("no.")]).toEqual([true, true, true, false, false]);
  });
});

describe("LoCoMo category 5 and the metrics", () => {
  it("reads a letter as its option, else the reply; the option order is seeded", () => {
    const o = { a: "Not mentioned in the conversation", b: "a blue vase" };
    expect([readCat5("a", o), readCat5("(b)", o), readCat5(" B ", o), readCat5("It was a vase", o)]).toEqual([
      o.a,
      o.b,
      o.b,
      "It was a vase",
    ]);
    const it = { itemKey: "c#5", adversarialAnswer: "x", answer: "" } as Parameters<typeof cat5Options>[0];
    expect(cat5Options(it, 0, 0)).toEqual(cat5Options(it, 0, 0));
    const orders = new Set(Array.from({ length: 20 }, (_, s) => cat5Options(it, s, 0).a));
    expect(orders.size).toBe(2);
  });

  it("means per category and per type; abstention counted in its type and apart", () => {
    const m = convMetrics([
      { locomo: { f1: 1, category: 4 }, evidence: { recall: 0.5 } },
      { locomo: { f1: 0, category: 4 } },
      { locomo: { f1: 0.5, category: 1 } },
    ]);
    expect(m).toEqual({ f1: 0.5, "f1.cat1": 0.5, "f1.cat4": 0.5, evidenceRecall: 0.5, "evidenceRecall.cat4": 0.5 });
    const l = convMetrics([
      { judge: { correct: 1, type: 0, abstention: 1 } },
      { judge: { correct: 0, type: 0, abstention: 0 }, retrieval: { k: 10, sessionRecallAny: 1 } },
    ]);
    expect(l).toEqual({ accuracy: 0.5, "accuracy.single-session-user": 0.5, "accuracy.abstention": 1, "retrieval.sessionRecallAny": 1 });
  });
});

describe("metric labels of the benchmark tasks", () => {
  it("reads the category, type and retrieval keys in words", async () => {
    const { metricLabel } = await import("@/lib/experiments/metric-label");
    expect(
      [
        "f1",
        "f1.cat3",
        "evidenceRecall.cat1",
        "accuracy",
        "accuracy.knowledge-update",
        "retrieval.turnNdcg",
        "retrieval.sessionRecallAny",
      ].map(metricLabel),
    ).toEqual(["F1", "F1 cat. 3", "Evidence recall cat. 1", "Accuracy", "Acc. knowledge-update", "Turn NDCG", "Session recall (any)"]);
  });
});

describe("the items as a person reads them", () => {
  it("describe / present / export fields of a LoCoMo and a LongMemEval item", async () => {
    const { tempDb } = await import("@/test/db");
    const { LOCOMO_DEMO, LONGMEMEVAL_DEMO } = await import("@/test/fixtures");
    const { importLocomo } = await import("@/lib/datasets/locomo/import");
    const { importLongMemEval } = await import("@/lib/datasets/longmemeval/import");
    const { locomoTask, longmemevalTask } = await import("./task");
    const t = tempDb();
    try {
      const loc = await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc" });
      const lme = await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
      expect(locomoTask.items(t.db, loc.datasetId, ["conv-demo-2"]).map((i) => i.itemKey)).toEqual([
        "conv-demo-2#0",
        "conv-demo-2#1",
        "conv-demo-2#2",
        "conv-demo-2#3",
      ]);
      const p = locomoTask.present!(t.db, loc.datasetId, "conv-demo-1#5");
      expect(p.reference).toEqual([
        { label: "Reference", text: "Not answerable from the conversation (the adversarial answer: a blue vase)" },
      ]);
      expect(p.cards[0].fields.map((f) => f.label)).toEqual(["Question", "Category", "Evidence"]);
      expect(locomoTask.exportItem!(t.db, loc.datasetId, "conv-demo-2#2")).toEqual({
        question: "What year did Ruth start at the library?",
        reference: "2024",
        category: 2,
      });
      expect(longmemevalTask.exportItem!(t.db, lme.datasetId, "q-demo-ssu_abs")).toMatchObject({ question_type: "single-session-user" });
      expect(longmemevalTask.describe!(t.db, lme.datasetId, "q-demo-ssu_abs").find((f) => f.label === "Question type")?.text).toBe(
        "single-session-user (abstention)",
      );
    } finally {
      t.cleanup();
    }
  });
});
