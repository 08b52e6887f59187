/**
 * The dialogue task and its judges as Mem-PAL's public evaluation code runs them, end to end through the real
 * worker and model client against the fake OpenAI server (which records every request):
 * - judges at temperature 0 when the experiment sets none (public code: llm_generation.py calls GPT at 0),
 *   and FairEval's six judgments per pair and dimension still six separate requests (k_mec = 3, both orders);
 * - the user simulator gets the requirement framework (each implicit need with its evidence) in requirement
 *   turns and the solution preference (each solution with its reason) in solution turns, and the dialogue
 *   judge gets both (public code: user_assistant_dialogue.py and perform_evaluation.py build them so).
 * Expected values: read from the public code's behaviour (temperature 0, 6 judgments, which inputs each role
 * gets); the counts worked out by hand from the fixture (topics × 2 dimensions × 6).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentProgress } from "@/lib/experiments/progress";
import { listQueryTopics, loadPalItem } from "../palset-items";

const text = (r: ChatRequest) => r.messages.map((m) => String(m.content ?? "")).join("\n");

describe("dialogue task: the public code's temperatures, judgment count and role inputs", () => {
  let fake: FakeOpenAI;
  const t = tempDb();
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "sim-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("judges at 0 with six requests per pair and dimension; simulator and judge read needs with evidence and solutions with reasons", async () => {
    const datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "pal", lang: "en" })).datasetId;
    const user = listQueryTopics(t.db, datasetId, "all")[0].userKey;
    const items = listQueryTopics(t.db, datasetId, [user]).map((i) => loadPalItem(t.db, datasetId, i.itemKey));
    // The fixture imports requirement_framework and solution_preference for every query topic.
    expect(items.every((i) => i.framework.from === "framework")).toBe(true);
    const evidence = items.flatMap((i) => i.framework.needs.map((n) => (typeof n === "string" ? "" : (n.evidence ?? ""))));
    const reasons = items.flatMap((i) =>
      [...i.framework.solutions.pos, ...i.framework.solutions.neg].map((s) => (typeof s === "string" ? "" : (s.reason ?? ""))),
    );
    expect(evidence.every((e) => e.length > 20) && reasons.every((r) => r.length > 20)).toBe(true);

    fake.chatRequests.length = 0;
    const config = {
      methods: [{ name: "vanilla" }, { name: "vanilla-log" }],
      tasks: ["requirement", "dialogue"],
      users: [user],
      reference: "vanilla-log",
    };
    const { id } = createExperiment(t.db, { name: "dlg", datasetId, config, knownMethod: knownMethod() });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, id, deps, { concurrency: 4 })).toBe("done");
    expect(experimentProgress(t.db, id).failed).toBe(0);

    const judge = fake.chatRequests.filter((r) => r.model === "judge-model");
    const pairJudge = judge.filter((r) => text(r).includes("assistant-1"));
    const gscore = judge.filter((r) => !text(r).includes("assistant-1"));
    // Before: the dialogue judge ran at 0.7 and G-Score at the endpoint's default (no temperature sent).
    expect(new Set(judge.map((r) => r.temperature))).toEqual(new Set([0]));
    // One per item: both methods' restatements are the same scripted reply, so the second request is a cache hit.
    expect(gscore).toHaveLength(items.length);
    // One pair (vanilla vs vanilla-log) per topic, two dimensions, six judgments each: all sent, none a cache copy.
    expect(pairJudge).toHaveLength(items.length * 2 * 6);

    const sim = fake.chatRequests.filter((r) => r.model === "sim-model").map(text);
    const reqTurns = sim.filter((p) => p.includes('"implicit_needs"'));
    const solTurns = sim.filter((p) => p.includes('"candidate_solutions"'));
    expect(reqTurns.length).toBeGreaterThan(0);
    expect(solTurns.length).toBeGreaterThan(0);
    expect(reqTurns.length + solTurns.length).toBe(sim.length);
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    for (const it of items) {
      const ev = it.framework.needs.map((n) => (typeof n === "string" ? n : n.evidence!));
      const rs = [...it.framework.solutions.pos, ...it.framework.solutions.neg].map((s) => (typeof s === "string" ? s : s.reason!));
      // requirement turns: the needs with their evidence; solution turns: the solutions with their reasons (and no needs)
      expect(reqTurns.some((p) => ev.every((e) => p.includes(json(e))))).toBe(true);
      expect(solTurns.some((p) => rs.every((r) => p.includes(json(r))))).toBe(true);
      expect(solTurns.some((p) => ev.some((e) => p.includes(json(e))))).toBe(false);
      // the judge: evidence in the requirement dimension, reasons in the preference dimension
      const jt = pairJudge.map(text);
      expect(jt.some((p) => ev.every((e) => p.includes(json(e))))).toBe(true);
      expect(jt.some((p) => rs.every((r) => p.includes(json(r))))).toBe(true);
    }
    // The simulator keeps its preferences to itself while discussing and giving feedback.
    expect(solTurns.every((p) => p.includes("Keep your preferences to yourself"))).toBe(true);
    // The assistant's replies: one to three sentences, one need per inference, a new solution each time.
    const asst = fake.chatRequests.filter((r) => r.model === "assistant-model").map(text);
    const replyPrompts = asst.filter((p) => p.includes("Reply type for this turn"));
    expect(replyPrompts.length).toBeGreaterThan(0);
    expect(replyPrompts.every((p) => p.includes("one to three sentences"))).toBe(true);
    expect(replyPrompts.some((p) => p.includes("One need per reply"))).toBe(true);
    expect(replyPrompts.some((p) => p.includes("propose a new one"))).toBe(true);
    expect(replyPrompts.some((p) => p.includes("try to persuade them"))).toBe(true);
  }, 600_000);
});
