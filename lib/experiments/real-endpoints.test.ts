/**
 * Replies as real endpoints give them (issue 17): reasoning models' thinking (`<think>` blocks,
 * `reasoning_content`), an endpoint without JSON mode, and requests the endpoint refuses outright.
 * The whole engine runs against the fake OpenAI server over HTTP.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI, type Reply } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { ModelClient } from "@/lib/llm/client";
import { jsonModeRefusals } from "@/lib/llm/ledger";
import { jobs, llmCalls } from "@/db/schema";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { experimentResults } from "./results";
import { importDemoPalsetEn } from "@/test/demo-palset";

let t: ReturnType<typeof tempDb>;
let datasetId: number;
let fake: FakeOpenAI | null = null;

beforeAll(async () => {
  t = tempDb();
  datasetId = await importDemoPalsetEn(t.db);
});
afterAll(() => t.cleanup());
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = null;
});

async function serve(options: Parameters<typeof startFakeOpenAI>[0] = {}) {
  fake = await startFakeOpenAI(options);
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
    vi.stubEnv(`PAL_MODEL_${k}`, v);
  return fake;
}

const deps = () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 2000 }) });
const jobRows = (id: number) => t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();

describe("replies of reasoning models", () => {
  it("<think> blocks and reasoning_content are stripped before parsing: every item succeeds; the ledger keeps the thinking", async () => {
    const scripted = experimentReplies();
    // Every reply thinks first: half in a <think> block before the JSON, half in reasoning_content.
    const f = await serve({
      rejectJsonMode: true,
      respond: (req, index): Reply => {
        const r = scripted(req);
        if (typeof r !== "string") return r;
        return index % 2 === 0
          ? { content: `<think>\nThe user asks {"not": "this"}; let me think step ${index}.\n</think>\n\n${r}`, reasoningTokens: 12 }
          : { content: r, reasoningContent: `Thinking about step ${index}: {"not": "this either"}`, reasoningTokens: 9 };
      },
    });
    // The judge's endpoint is set to JSON mode, which this endpoint lacks: refused once, then asked without it.
    vi.stubEnv("PAL_JUDGE_JSON_MODE", "1");
    const { id } = createExperiment(t.db, {
      name: "reasoning",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement", "solution"], users: ["0000"] },
    });
    expect(await runExperiment(t.db, id, deps(), { concurrency: 2 })).toBe("done");
    const rows = jobRows(id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((j) => [j.status, j.error])).toEqual(rows.map(() => ["done", null]));
    const res = experimentResults(t.db, id);
    expect(res.results.every((r) => r.failed === 0)).toBe(true);
    const req = res.results.find((r) => r.task === "requirement")!;
    expect(req.metrics.gscore).toBe(75); // the judge's 1.5, parsed past its thinking

    const calls = t.db.select().from(llmCalls).all();
    const paid = calls.filter((c) => !c.cacheHit && c.status === "ok");
    expect(paid.length).toBeGreaterThan(0);
    // The raw reply with its thinking, and the reasoning tokens, are in the ledger.
    expect(paid.every((c) => /<think>/.test(c.rawReply ?? "") && c.reasoningTokens > 0)).toBe(true);
    // JSON mode: refused with a 400 (once per request already in flight, at most the 2 lanes), noted in the
    // ledger as a retry, and never asked for again once refused.
    const asked = f.chatRequests.flatMap((r, i) => (r.response_format !== undefined ? [i] : []));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length).toBeLessThanOrEqual(2);
    const notes = calls.filter((c) => /refused JSON mode/.test(c.error ?? ""));
    expect(notes.map((c) => c.status)).toEqual(asked.map(() => "retry"));
    // What the Models page shows beside the judge's configuration.
    expect(jsonModeRefusals(t.db)).toEqual([{ endpoint: f.baseURL, model: "judge-model", error: expect.stringMatching(/HTTP 400/) }]);
  });
});

describe("requests the endpoint refuses", () => {
  it("a 400 context-length error is sent once per item: no client retry, no regeneration, no further job attempt", async () => {
    const f = await serve({
      fault: () => ({
        kind: "status",
        status: 400,
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.",
      }),
    });
    const { id } = createExperiment(t.db, {
      name: "too-long",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"] },
    });
    await runExperiment(t.db, id, deps(), { concurrency: 2 });
    const rows = jobRows(id);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((j) => j.status === "failed" && j.attempts === 1 && /maximum context length/.test(j.error ?? ""))).toBe(true);
    expect(f.chatRequests).toHaveLength(rows.length);
  });
});
