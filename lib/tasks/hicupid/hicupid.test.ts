/**
 * The hicupid task against the fake OpenAI server, through the real model client and worker: answers in
 * each inference setting, A/B judging with the model's slot randomised and recorded, YES/NO judging, the
 * final-line verdict parsed (a malformed reply is asked again), scores per type, Total, BLEU, ROUGE-L,
 * retrieval recall and two judges' Cohen's kappa, each checked against an independent computation.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI, type ChatRequest } from "@/test/fake-openai";
import { FIXTURE_JSONL } from "@/test/fixtures";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { hcDialogues, hcQa, hcTurns, jobs, jobScores } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { saveModelSetting } from "@/lib/llm/config";
import { abScore, hfBleu, hicupidTotal, rougeL, scheduleScore } from "@/lib/metrics";
import { cohenKappa } from "@/lib/agreement/cohen";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentResults } from "@/lib/experiments/results";
import { fewShotSet, loadHcItem } from "./items";
import { personalInfo } from "@/lib/judges/hicupid";
import { datasetById, loadSessions } from "@/lib/assistants/core/sessions";
import { balancedSlots } from "@/lib/judges/hicupid";
import { HICUPID_ACK, HICUPID_INSTRUCTION } from "./prompts";

/** The answer prompts: the ones holding the HiCUPID instruction (in the system prompt or a user turn). */
const INSTRUCTION_HEAD = HICUPID_INSTRUCTION.split("\n")[0];

const body = (r: ChatRequest) => r.messages.map((m) => String(m.content)).join("\n");
const ANSWER = "How about a quiet trail walk on Saturday morning, then coffee with friends?";

/** Judge 1 always prefers A and says YES to reminder questions; judge 2 prefers B and always says NO. */
function replies() {
  let malformed = 0;
  return (r: ChatRequest) => {
    const t = body(r);
    // The inference settings' prompt (the instruction) and a memory method's question prompt.
    if (t.includes(INSTRUCTION_HEAD) || t.includes("# The user's question")) return ANSWER;
    const second = r.model === "judge-2";
    if (t.includes("Better Response: <A/B/Tie>")) {
      // The first A/B judgment of all comes back without a verdict line: it must be asked again.
      if (!second && malformed++ === 0) return "1. Personalization: A is better.\n2. Logical Validity: both fine.";
      return `1. Personalization: x\n2. Logical Validity: y\n\nBetter Response: ${second ? "B" : "A"}`;
    }
    if (t.includes("Satisfaction: <YES/NO>")) {
      const yes = !second && /remind/i.test(t.split("Question:").at(-1) ?? "");
      return `1. Personalization: z\n\nSatisfaction: ${yes ? "YES" : "NO"}`;
    }
    return "unexpected prompt";
  };
}

describe("hicupid task", () => {
  let t: ReturnType<typeof tempDb>;
  let fake: FakeOpenAI;
  let datasetId: number;

  beforeAll(async () => {
    t = tempDb();
    datasetId = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
    fake = await startFakeOpenAI();
    fake.setResponder(replies());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", JUDGE: "judge-1" })) vi.stubEnv(`PAL_MODEL_${k}`, v);
    saveModelSetting(t.db, { name: "judge:second", model: "judge-2" });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("scores every type, Total, BLEU, ROUGE-L and kappa exactly, with the slot randomised and recorded", async () => {
    const config = {
      methods: [{ name: "full-history" }, { name: "gold", options: { instruction: "system", shots: 1 } }, { name: "vanilla" }],
      tasks: ["hicupid"],
      seed: 7,
      hicupid: { splits: ["test_1", "test_2"], judges: ["judge", "judge:second"] },
    };
    const { id } = createExperiment(t.db, { name: "hc", datasetId, config });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, id, deps, { concurrency: 3 })).toBe("done");
    const res = experimentResults(t.db, id);
    const all = t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();
    expect(all.every((j) => j.status === "done")).toBe(true);

    const items = [...new Set(all.map((j) => j.itemKey))].map((k) => ({ key: k, ...loadHcItem(t.db, datasetId, k) }));
    const types = new Set(items.map((i) => i.type));
    expect(types).toEqual(new Set(["persona", "profile", "schedule"]));
    const abItems = items.filter((i) => i.type !== "schedule").map((i) => ({ itemKey: i.key, type: i.type }));
    const modelSlot = (_seed: number, _rep: number, key: string, judge: number) => balancedSlots(abItems, 7, 0, judge).get(key)!;
    // Independent expectations: judge 1 says A, so the model wins where its slot was A; judge 2 says B.
    const expectFor = (judge: number, verdict: "A" | "B") => {
      const ab = (type: string) =>
        abScore(items.filter((i) => i.type === type).map((i) => ({ verdict, modelSlot: modelSlot(7, 0, i.key, judge) }))).score;
      const sched = scheduleScore(
        items.filter((i) => i.type === "schedule").map((i) => (judge === 0 && /remind/i.test(i.question) ? "YES" : "NO")),
      ).score;
      return { persona: ab("persona"), profile: ab("profile"), schedule: sched };
    };
    const j1 = expectFor(0, "A");
    const j2 = expectFor(1, "B");
    const labels = (judge: number, verdict: "A" | "B") =>
      items.map((i) =>
        i.type === "schedule"
          ? judge === 0 && /remind/i.test(i.question)
            ? "YES"
            : "NO"
          : modelSlot(7, 0, i.key, judge) === verdict
            ? "win"
            : "lose",
      );
    const l1 = labels(0, "A");
    const l2 = labels(1, "B");
    const kappa = cohenKappa(
      l1.map((x, i) => [x, l2[i]] as const),
      { categories: ["win", "tie", "lose", "YES", "NO"] },
    ).value;
    const refs = items.map((i) => i.personalizedAnswer);
    for (const method of ["full-history", "gold", "vanilla"]) {
      const m = res.results.find((r) => r.method === method)!.metrics;
      expect(m.persona).toBe(j1.persona);
      expect(m.profile).toBe(j1.profile);
      expect(m.schedule).toBe(j1.schedule);
      expect(m.total).toBeCloseTo(hicupidTotal(j1)!, 12);
      expect(m["persona@2"]).toBe(j2.persona);
      expect(m["total@2"]).toBeCloseTo(hicupidTotal(j2)!, 12);
      expect(m.kappa).toBeCloseTo(kappa!, 12);
      // BLEU as HiCUPID's public scoring reports it: smoothed sentence BLEU per item, averaged; corpus BLEU apart.
      expect(m.bleu).toBeCloseTo((refs.reduce((s, r) => s + hfBleu([ANSWER], [r]).bleu, 0) / refs.length) * 100, 10);
      expect(m.bleuCorpus).toBeCloseTo(
        hfBleu(
          items.map(() => ANSWER),
          refs,
        ).bleu * 100,
        10,
      );
      expect(m.rougeL).toBeCloseTo((refs.reduce((s, r) => s + rougeL(r, ANSWER).fmeasure, 0) / refs.length) * 100, 10);
    }
    // The slots are exactly balanced per type (seeded shuffle, not a coin flip) and recorded with each judgment:
    // 4 persona items → 2 in A, 2 in B; 2 multi-info items → 1 and 1.
    for (const judge of [0, 1])
      for (const [type, n] of [
        ["persona", 4],
        ["profile", 2],
      ] as const) {
        const slots = abItems.filter((i) => i.type === type).map((i) => modelSlot(7, 0, i.itemKey, judge));
        expect(slots).toHaveLength(n);
        expect(slots.filter((x) => x === "A")).toHaveLength(n / 2);
      }
    const recorded = t.db
      .select()
      .from(jobScores)
      .where(eq(jobScores.scorer, "judge"))
      .all()
      .filter((r) => (r.detail as { modelSlot?: string }).modelSlot);
    for (const r of recorded) {
      const job = all.find((j) => j.id === r.jobId);
      if (job) expect((r.detail as { modelSlot: string }).modelSlot).toBe(modelSlot(7, 0, job.itemKey, 0));
    }
    const row = t.db
      .select()
      .from(jobScores)
      .where(and(eq(jobScores.scorer, "judge")))
      .all()
      .find((s) => (s.detail as { modelSlot?: string }).modelSlot);
    expect(["A", "B"]).toContain((row!.detail as { modelSlot: string }).modelSlot);

    // The malformed verdict was asked again (a correction follows the bad reply in the next request).
    const abCalls = fake.chatRequests.filter((r) => body(r).includes("Better Response: <A/B/Tie>"));
    expect(abCalls.some((r) => r.messages.length === 3 && String(r.messages[1].content).includes("Logical Validity: both fine."))).toBe(
      true,
    );

    // What the assistant saw: never an answer or the metadata; the gold setting only the relevant dialogues,
    // with the instruction as the system prompt.
    const answerPrompts = fake.chatRequests.filter((r) => body(r).includes(INSTRUCTION_HEAD));
    for (const p of answerPrompts.map(body)) for (const i of items) expect(p).not.toContain(i.personalizedAnswer);
    const goldItem = items.find((i) => i.relevantDialogues.length === 1)!;
    const gold = answerPrompts.find((r) => r.messages[0].role === "system" && body(r).includes(goldItem.question))!;
    expect(gold).toBeDefined();
    // HiCUPID's layout (public inference code): with the instruction as the system prompt, system prompt, the
    // history as the user's and the assistant's own turns, the bare question last. The gold history is exactly
    // the relevant dialogues' turns.
    const ds = datasetById(t.db, datasetId);
    const gh = loadSessions(t.db, ds, goldItem.userKey).filter((s) => goldItem.relevantDialogues.includes(s.key));
    expect(gold.messages.slice(1, -1)).toEqual(
      gh.flatMap((s) =>
        s.dialogue.flatMap((x) => [
          { role: "user", content: x.user },
          { role: "assistant", content: x.assistant },
        ]),
      ),
    );
    expect(gold.messages.at(-1)).toEqual({ role: "user", content: goldItem.question });
    // With the instruction in the user turn: the history first, then the instruction turn and its
    // acknowledgement, then the question (read from the public code's build_messages: system + history + user + question).
    const userMode = answerPrompts.find((r) => r.messages[0].role === "user")!;
    expect(userMode.messages.at(-2)).toEqual({ role: "assistant", content: HICUPID_ACK });
    expect(String(userMode.messages.at(-3)!.content).startsWith(INSTRUCTION_HEAD)).toBe(true);
    expect(userMode.messages.filter((m) => String(m.content).includes(INSTRUCTION_HEAD))).toHaveLength(1);
    expect(body(gold)).toContain("# Examples");

    // A shot is what HiCUPID gives (question, personalized answer, general answer of one persona, one
    // multi-info and one schedule QA from train), with none of the shot user's dialogues and nothing
    // of the test item beyond its question.
    // The fixture's train split does not hold the public code's fixed examples: the seeded fallback, recorded.
    const set = fewShotSet(t.db, datasetId, 1, { excludeUser: goldItem.userKey, seed: config.seed });
    expect(set.source).toBe("seeded");
    const shots = set.examples;
    // (only user 0 has a profile train QA, so user 0's items get no profile example: see items.test.ts)
    expect(shots.map((e) => e.type)).toEqual(goldItem.userKey === "0" ? ["persona", "schedule"] : ["persona", "profile", "schedule"]);
    const examples = String(gold.messages[0].content).split("# Examples")[1];
    for (const [i, e] of shots.entries())
      expect(examples).toContain(
        `Example ${i + 1}:\n- Question: ${e.question}\n- Personalized answer: ${e.answer}\n- General answer: ${e.generalAnswer}`,
      );
    const trainQa = t.db
      .select()
      .from(hcQa)
      .where(and(eq(hcQa.datasetId, datasetId), eq(hcQa.split, "train")))
      .all();
    const shotDialogues = trainQa.filter((q) => shots.some((e) => e.question === q.question)).flatMap((q) => q.dialogueIds as string[]);
    expect(shotDialogues.length).toBeGreaterThan(0);
    const turns = t.db.select().from(hcTurns).innerJoin(hcDialogues, eq(hcDialogues.id, hcTurns.dialogueId)).all();
    const shotTurns = turns.filter((r) => shotDialogues.includes(r.hc_dialogues.dialogueKey));
    expect(shotTurns.length).toBeGreaterThan(0);
    for (const r of shotTurns) expect(examples).not.toContain(r.hc_turns.user);
    // The test item's answers and its judge-only metadata (as the judge sees it) stay out.
    const leaks = [goldItem.personalizedAnswer, goldItem.generalAnswer, JSON.stringify(goldItem.metadata)];
    if (goldItem.type !== "schedule") leaks.push(personalInfo(goldItem.type, goldItem.metadata));
    for (const l of leaks) expect(body(gold)).not.toContain(l);
  });

  it("RAG: units back in chronological order and retrieval recall against the relevant dialogues", async () => {
    const config = {
      methods: [
        { name: "rag-dialogue", options: { k: 1 } },
        { name: "rag-utterance", options: { k: 25 } },
      ],
      tasks: ["hicupid"],
      hicupid: { splits: ["test_1"] },
    };
    const { id } = createExperiment(t.db, { name: "rag", datasetId, config });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, id, deps)).toBe("done");
    const done = t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();
    for (const j of done) {
      const units = j.retrieved as Array<{ dialogue: string; turn?: number }>;
      const item = loadHcItem(t.db, datasetId, j.itemKey);
      const recall = t.db
        .select()
        .from(jobScores)
        .where(and(eq(jobScores.jobId, j.id), eq(jobScores.scorer, "retrieval")))
        .get()!.values.recall;
      const got = new Set(units.map((u) => u.dialogue));
      expect(recall).toBe(item.relevantDialogues.filter((k) => got.has(k)).length / item.relevantDialogues.length);
      if (j.method === "rag-dialogue") expect(units.length).toBe(1);
    }
    // Units in the order they happened: by the dialogue's place in the user's history, then by turn.
    const ds = datasetById(t.db, datasetId);
    let longest = 0;
    for (const j of done.filter((x) => x.method === "rag-utterance")) {
      const order = loadSessions(t.db, ds, j.userKey!).map((s) => s.key);
      const pos = (j.retrieved as Array<{ dialogue: string; turn: number }>).map((u) => order.indexOf(u.dialogue) * 1000 + u.turn);
      expect(pos).toEqual([...pos].sort((a, b) => a - b));
      longest = Math.max(longest, pos.length);
    }
    expect(longest).toBeGreaterThan(1);
    const m = experimentResults(t.db, id).results.find((r) => r.method === "rag-utterance")!.metrics;
    expect(m.recall).toBeGreaterThan(0);
  });
});
