/** LongMemEval's retrieval scores against a Python reference of eval_utils.py; the judge's templates and decision; the metrics. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lmeJudgeMessages, lmeYes } from "@/lib/judges/longmemeval";
import { lmeRetrieval, retrievalAt, type RetrievedUnit } from "./retrieval";
import type { TimelineSession } from "@/lib/datasets/convmem/thread";
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

  // A haystack session as the JSON has it: its id and turns [role, has_answer].
  type Hay = { id: string; turns: Array<[string, boolean?]> };
  const reference = (cases: unknown[]) => {
    const r = spawnSync("python3", [path.join(import.meta.dirname, "retrieval_reference.py")], {
      input: JSON.stringify(cases),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.stderr).toBe("");
    return JSON.parse(r.stdout) as Array<{ session: number[]; turn: number[] | null } | null>;
  };

  it("which questions and sessions count, as run_retrieval.py decides (cf920ec): no user has_answer, no score; a 'noans' session is not correct", () => {
    const chat = (a: boolean | undefined, b?: boolean): Array<[string, boolean?]> => [
      ["user", a],
      ["assistant", b],
      ["user", a === undefined ? undefined : false],
      ["assistant", b === undefined ? undefined : false],
    ];
    const f = (id: string): Hay => ({ id, turns: chat(undefined) });
    const questions: Array<{ hay: Hay[]; answers: string[]; sessions: string[]; turns: string[] | null }> = [
      // single-session-user: the evidence on the user's side.
      {
        hay: [f("f1"), { id: "answer_x_1", turns: chat(true) }, f("f2")],
        answers: ["answer_x_1"],
        sessions: ["f2", "answer_x_1"],
        turns: null,
      },
      {
        hay: [f("f1"), { id: "answer_x_1", turns: chat(true) }, f("f2")],
        answers: ["answer_x_1"],
        sessions: ["answer_x_1"],
        turns: ["answer_x_1_3", "f2_1", "answer_x_1_1"],
      },
      // single-session-assistant: the evidence only on the assistant's side: left out of the averages.
      {
        hay: [f("f1"), { id: "answer_y_1", turns: chat(false, true) }],
        answers: ["answer_y_1"],
        sessions: ["answer_y_1"],
        turns: ["answer_y_1_1"],
      },
      // Two answer sessions, one of them with no user-side evidence ("noans"): only the other is correct.
      {
        hay: [{ id: "answer_a_1", turns: chat(false, true) }, f("f1"), { id: "answer_b_1", turns: chat(true) }, f("f2")],
        answers: ["answer_a_1", "answer_b_1"],
        sessions: ["answer_a_1", "f1"],
        turns: ["answer_a_1_1", "f1_3"],
      },
      {
        hay: [{ id: "answer_a_1", turns: chat(false, true) }, f("f1"), { id: "answer_b_1", turns: chat(true) }, f("f2")],
        answers: ["answer_a_1", "answer_b_1"],
        sessions: ["f1", "answer_b_1", "f2"],
        turns: ["f1_1", "answer_b_1_1"],
      },
      // A filler session twice in one haystack (the cleaned S file has 13 such, issue #54).
      {
        hay: [f("f1"), { id: "answer_z_1", turns: chat(true) }, f("f1"), f("f2")],
        answers: ["answer_z_1"],
        sessions: ["f1", "f2", "answer_z_1"],
        turns: null,
      },
    ];
    const want = reference(
      questions.map((q) => ({
        question: {
          haystack: q.hay.map((h) => ({
            id: h.id,
            turns: h.turns.map(([role, has]) => (has === undefined ? { role } : { role, has_answer: has })),
          })),
          sessions: q.sessions,
          turns: q.turns,
        },
      })),
    );
    const got = questions.map((q) => {
      const timeline: TimelineSession[] = q.hay.map((h, seq) => ({
        seq,
        label: h.id,
        sessionKey: h.id,
        date: null,
        turns: h.turns.map(([speaker, has], position) => ({
          position,
          speaker,
          text: "",
          diaId: null,
          extra: null,
          hasAnswer: has === undefined ? null : has ? 1 : 0,
        })),
      }));
      const byLabel = new Map(timeline.map((x) => [x.label, x]));
      const units: RetrievedUnit[] = q.turns
        ? q.turns.map((id) => {
            const m = /^(.*)_(\d+)$/.exec(id)!;
            return { session: byLabel.get(m[1])!, positions: [Number(m[2]) - 1] };
          })
        : q.sessions.map((id) => ({ session: byLabel.get(id)!, positions: null }));
      return lmeRetrieval({ units, timeline }, q.answers);
    });
    questions.forEach((q, i) => {
      const w = want[i];
      if (w === null) return expect(got[i]).toBeNull();
      const g = got[i]!;
      // The turn runs' session level is the sessions of the retrieved turns, in rank order (as turn2session).
      if (!q.turns) {
        expect([g.sessionRecallAny, g.sessionRecallAll]).toEqual([w.session[0], w.session[1]]);
        expect(g.sessionNdcg).toBeCloseTo(w.session[2], 12);
      } else {
        expect([g.turnRecallAny, g.turnRecallAll]).toEqual([w.turn![0], w.turn![1]]);
        expect(g.turnNdcg).toBeCloseTo(w.turn![2], 12);
      }
    });
    expect(got[2]).toBeNull();
    // The noans session retrieved first does not count: recall 0 where answer_session_ids alone would say 1.
    expect(got[3]).toMatchObject({ sessionRecallAny: 0, turnRecallAny: 0 });
    expect(want.filter((w) => w && w.session[2] > 0 && w.session[2] < 1).length).toBeGreaterThan(0);
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
    expect(l).toEqual({
      accuracy: 0.5,
      "accuracy.single-session-user": 0.5,
      "accuracy.abstention": 1,
      "accuracy.taskAveraged": 0.5,
      "retrieval.sessionRecallAny": 1,
    });
    // Task-averaged (print_qa_metrics.py): the mean of the types' accuracies, not of the questions.
    const ta = convMetrics([
      { judge: { correct: 1, type: 0, abstention: 0 } },
      { judge: { correct: 1, type: 0, abstention: 0 } },
      { judge: { correct: 1, type: 0, abstention: 0 } },
      { judge: { correct: 0, type: 4, abstention: 0 } },
    ]);
    expect([ta.accuracy, ta["accuracy.taskAveraged"]]).toEqual([0.75, 0.5]);
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
