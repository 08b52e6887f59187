/**
 * Leakage, end to end: every task (requirement, solution, dialogue; hicupid with 0, 1, 3 and 5 shots,
 * gold and both RAG settings, and a memory method) runs through the real worker and model client against
 * the fake OpenAI server, which records every prompt. No prompt sent to the assistant role (answering
 * and memory building alike) may hold the item's own references or its user's held-out answers. The
 * judges and the user simulator see references by design: they run under other model names and are not
 * checked here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { FIXTURE_JSONL, PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { hcQa, hcUsers } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentProgress } from "@/lib/experiments/progress";
import { listQueryTopics, loadPalItem } from "./palset-items";

const ASSISTANT = "assistant-model";
const text = (r: ChatRequest) => r.messages.map((m) => String(m.content ?? "")).join("\n");
/** Long enough that a match is a copy, not a coincidence. */
const long = (xs: Array<string | null | undefined>) => xs.filter((x): x is string => typeof x === "string" && x.trim().length >= 12);

describe("no reference or held-out answer reaches an assistant or memory prompt", () => {
  let fake: FakeOpenAI;
  const t = tempDb();
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT, USER_SIMULATOR: "sim-model", JUDGE: "judge-model", EMBEDDING: "embed-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  async function run(datasetId: number, config: Record<string, unknown>): Promise<string[]> {
    fake.chatRequests.length = 0;
    const { id } = createExperiment(t.db, { name: "leak", datasetId, config, knownMethod: knownMethod() });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, id, deps, { concurrency: 4 })).toBe("done");
    expect(experimentProgress(t.db, id).failed).toBe(0);
    const prompts = fake.chatRequests.filter((r) => r.model === ASSISTANT).map(text);
    expect(prompts.length).toBeGreaterThan(0);
    return prompts;
  }

  it("PAL-Bench: requirement, solution and dialogue, with and without memory", async () => {
    const datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "pal", lang: "en" })).datasetId;
    const user = listQueryTopics(t.db, datasetId, "all")[0].userKey;
    const items = listQueryTopics(t.db, datasetId, [user]).map((i) => loadPalItem(t.db, datasetId, i.itemKey));
    // Everything the data set holds about the query topics that the assistant must infer.
    const needs = long(
      items.flatMap((i) => [...i.implicitNeeds, ...(i.generalPreference ? [...i.generalPreference.pos, ...i.generalPreference.neg] : [])]),
    );
    const requirements = long(items.map((i) => i.requirement));
    const solutions = long(items.flatMap((i) => [...i.solutions.pos, ...i.solutions.neg]));
    expect(needs.length + requirements.length + solutions.length).toBeGreaterThan(0);
    const methods = [{ name: "vanilla-log" }, { name: "memorybank" }, { name: "h2memory" }];

    const check = (prompts: string[], banned: string[], what: string) => {
      for (const p of prompts) for (const b of banned) expect(p.includes(b), `${what}: a prompt holds "${b.slice(0, 60)}"`).toBe(false);
    };
    // Requirement restatement: only the vague query goes in.
    check(
      await run(datasetId, { methods, tasks: ["requirement"], users: [user] }),
      [...needs, ...requirements, ...solutions],
      "requirement",
    );
    // Solution proposal: the full requirement is its input; the solutions only as the selection's candidates.
    const sol = await run(datasetId, { methods, tasks: ["solution"], users: [user] });
    check(sol, needs, "solution");
    check(
      sol.filter((p) => !p.includes('"selected_solutions"')),
      solutions,
      "solution generation",
    );
    // Dialogue: the assistant sees the dialogue so far, never the framework behind the simulated user.
    check(
      await run(datasetId, { methods, tasks: ["dialogue"], users: [user], reference: "h2memory" }),
      [...needs, ...requirements],
      "dialogue",
    );
  }, 600_000);

  it("HiCUPID: every inference setting (0/1/3/5 shots, gold, RAG by BM25 and dense) and a memory method", async () => {
    const datasetId = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
    const qa = t.db
      .select({
        user: hcUsers.userKey,
        split: hcQa.split,
        question: hcQa.question,
        answer: hcQa.personalizedAnswer,
        general: hcQa.generalAnswer,
      })
      .from(hcQa)
      .innerJoin(hcUsers, eq(hcUsers.id, hcQa.userId))
      .where(and(eq(hcQa.datasetId, datasetId)))
      .all();
    const methods = [
      ...[0, 1, 3, 5].map((shots) => ({ name: "full-history", label: `shots-${shots}`, options: { shots } })),
      { name: "gold", options: { shots: 3, instruction: "system" } },
      { name: "rag-utterance", label: "rag-u-bm25", options: { retriever: "bm25", k: 5, shots: 1 } },
      { name: "rag-utterance", label: "rag-u-dense", options: { retriever: "dense", k: 5 } },
      { name: "rag-dialogue", label: "rag-d-bm25", options: { retriever: "bm25", k: 1, shots: 5 } },
      { name: "rag-dialogue", label: "rag-d-dense", options: { retriever: "dense", k: 3 } },
      { name: "vanilla" },
      { name: "h2memory" },
    ];
    const prompts = await run(datasetId, { methods, tasks: ["hicupid"], hicupid: { splits: ["test_1", "test_2"] } });
    const answerPrompts = prompts.filter(
      (p) => p.includes("# The user's question") || p.includes("What should") || p.includes("You are this user's personal AI assistant"),
    );
    expect(answerPrompts.length).toBeGreaterThan(0);
    let checked = 0;
    for (const p of prompts) {
      // The item a prompt answers: the test QA whose question it asks (memory-building prompts ask none).
      const item = qa.find((q) => q.split !== "train" && p.includes(q.question));
      // Held out for that item's user: every answer of theirs, in any split (their train answers too).
      const banned = item ? qa.filter((q) => q.user === item.user) : qa.filter((q) => q.split !== "train");
      for (const q of banned)
        for (const b of long([q.answer, q.general]))
          expect(p.includes(b), `a prompt${item ? ` for user ${item.user}` : ""} holds ${q.split} "${b.slice(0, 60)}"`).toBe(false);
      if (item) checked++;
    }
    // every test item was asked (identical prompts of two settings are asked once: the model cache)
    expect(checked).toBeGreaterThan(0);
    for (const q of qa.filter((x) => x.split !== "train")) expect(prompts.some((p) => p.includes(q.question))).toBe(true);
    // the few-shot runs did show examples (of other users)
    expect(prompts.some((p) => p.includes("# Examples\n\nExample 1:"))).toBe(true);
  }, 600_000);
});
