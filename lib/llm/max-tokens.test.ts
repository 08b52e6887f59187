import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { asc } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { llmCalls, llmCache } from "@/db/schema";
import type { Db } from "@/db/client";
import { DeferredCallError, ModelClient, type CollectedCall } from "./client";
import { pollBatch, submitBatch } from "./batch";
import { ModelCallError } from "./errors";
import { saveModelSetting } from "./config";
import { budgetFor, maxTokensFor, REASONING_HEADROOM } from "./max-tokens";
import { stubModelEnv } from "@/test/model-env";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let db: Db;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  t = tempDb();
  db = t.db;
  stubModelEnv(t.file, {
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "test-key",
    PAL_MODEL_ASSISTANT: "fake-assistant",
    PAL_MODEL_JUDGE: "fake-judge",
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
});

const client = (o: Parameters<typeof ModelClient.create>[1] = {}) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 400, ...o });
const ledger = () => db.select().from(llmCalls).orderBy(asc(llmCalls.id)).all();
const ask = (content: string) => [{ role: "user" as const, content }];
const Verdict = z.object({ score: z.number() });
const sentBudget = (i: number) => fake.chatRequests[i].max_tokens;

describe("budgets (max_tokens)", () => {
  it("follow the size of what the step writes; a role's own value wins; headroom is added for a reasoning model", () => {
    expect(budgetFor("conditionmem.decision")).toBe(256);
    expect(budgetFor("requirement.gscore")).toBe(1024);
    expect(budgetFor("h2memory.topic-outline")).toBe(4096);
    expect(budgetFor("memorybank.daily-portrait")).toBe(2048);
    expect(budgetFor("something.else")).toBe(2048);
    expect(maxTokensFor({ purpose: "x.judge", explicit: 100 })).toBe(100);
    expect(maxTokensFor({ purpose: "x.judge", explicit: 100, role: 300 })).toBe(300);
    expect(maxTokensFor({ purpose: "x.judge", reasoning: true })).toBe(1024 + REASONING_HEADROOM);
    expect(maxTokensFor({ purpose: "x.judge", reasoning: true, headroom: 0 })).toBe(1024);
    expect([0, 1, 2, 3].map((cutOffs) => maxTokensFor({ purpose: "x.judge", cutOffs }))).toEqual([1024, 2048, 4096, 4096]);
  });
});

describe("every chat call sends max_tokens", () => {
  it("sends the step's budget, not part of the cache key; a role's max_tokens_headroom is added and never sent itself", async () => {
    fake.setResponder(() => '{"score": 3}');
    await client().chat({ messages: ask("rate"), schema: Verdict, purpose: "requirement.gscore", role: "judge" });
    expect(sentBudget(0)).toBe(1024);
    // Another budget, the same request: answered from the cache.
    const again = await client().chat({
      messages: ask("rate"),
      schema: Verdict,
      purpose: "requirement.gscore",
      role: "judge",
      maxTokens: 50,
    });
    expect(again.cacheHit).toBe(true);
    saveModelSetting(db, { name: "judge", params: { max_tokens_headroom: 1000, temperature: 0 } });
    await client().chat({ messages: ask("rate 2"), schema: Verdict, purpose: "requirement.gscore", role: "judge" });
    expect(sentBudget(1)).toBe(2024);
    expect(fake.chatRequests[1]).not.toHaveProperty("max_tokens_headroom");
    expect(fake.chatRequests[1].temperature).toBe(0);
  });

  it("adds reasoning headroom once the model was seen thinking", async () => {
    fake.enqueue({ content: '{"score": 1}', reasoningContent: "let me think" }, '{"score": 2}');
    const c = client();
    await c.chat({ messages: ask("a"), schema: Verdict, purpose: "x.judge" });
    await c.chat({ messages: ask("b"), schema: Verdict, purpose: "x.judge" });
    expect([sentBudget(0), sentBudget(1)]).toEqual([1024, 1024 + REASONING_HEADROOM]);
  });

  it("treats a reply cut off at max_tokens as invalid, with its own reason, asks again with a larger budget, and counts it", async () => {
    // Parses as JSON, but it ended at the limit: never accepted as complete.
    fake.enqueue({ content: '{"score": 4}', finishReason: "length" }, '{"score": 5}');
    const c = client();
    const r = await c.chat({ messages: ask("judge this"), schema: Verdict, purpose: "x.judge" });
    expect(r.value.score).toBe(5);
    expect([sentBudget(0), sentBudget(1)]).toEqual([1024, 2048]);
    expect(ledger().map((x) => [x.status, x.error])).toEqual([
      ["invalid", "cut off at max_tokens (1024 tokens)"],
      ["ok", null],
    ]);
    expect(c.stats.cutOff).toBe(1);
    // The retry tells the model what went wrong.
    expect(JSON.stringify(fake.chatRequests[1].messages)).toMatch(/cut off at max_tokens/);
  });

  it("records a call whose every reply is cut off as failed, caching nothing", async () => {
    fake.setResponder(() => ({ content: "the same words again and again", finishReason: "length" }));
    const err = await client()
      .chat({ messages: ask("loop"), purpose: "x.judge" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err.message).toMatch(/cut off at max_tokens/);
    expect(ledger().map((x) => x.status)).toEqual(["invalid", "invalid", "failed"]);
    expect(db.select().from(llmCache).all()).toHaveLength(0);
  });

  it("switches to max_completion_tokens when the endpoint asks for it, and keeps it for the model", async () => {
    fake.enqueue({
      kind: "status",
      status: 400,
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    });
    fake.setResponder(() => "fine");
    const c = client();
    expect((await c.chat({ messages: ask("one"), purpose: "x.answer" })).text).toBe("fine");
    await c.chat({ messages: ask("two"), purpose: "x.answer" });
    expect(fake.chatRequests.map((r) => [r.max_tokens, r.max_completion_tokens])).toEqual([
      [1024, undefined],
      [undefined, 1024],
      [undefined, 1024],
    ]);
  });
});

describe("timeouts and in-flight requests", () => {
  it("retries a timeout at most once (not PAL_LLM_RETRIES times), recording each try, and counts them", async () => {
    fake.setFault(() => ({ kind: "hang" }));
    const c = client({ timeoutMs: 200, retries: 6 });
    const started = Date.now();
    const err = await c.chat({ messages: ask("slow"), purpose: "x.answer" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.chatRequests).toHaveLength(2);
    expect(ledger().map((x) => [x.status, x.error])).toEqual([
      ["retry", "timeout"],
      ["failed", "timeout"],
    ]);
    expect(c.stats.timeouts).toBe(2);
  });

  it("shows the requests in flight and since when the oldest waits", async () => {
    fake.setResponder(() => ({ content: "late", delayMs: 300 }));
    const c = client({ timeoutMs: 2000 });
    expect(c.inFlight()).toEqual({ calls: 0, oldestStartedAt: null });
    const before = Date.now();
    const calls = [c.chat({ messages: ask("1"), purpose: "x.answer" }), c.chat({ messages: ask("2"), purpose: "x.answer" })];
    await vi.waitFor(() => expect(c.inFlight().calls).toBe(2));
    expect(c.inFlight().oldestStartedAt).toBeGreaterThanOrEqual(before);
    await Promise.all(calls);
    expect(c.inFlight()).toEqual({ calls: 0, oldestStartedAt: null });
  });
});

describe("embeddings from a server that ignores encoding_format=base64", () => {
  it("are read as the arrays they are, not decoded into garbage", async () => {
    await fake.close();
    fake = await startFakeOpenAI({ ignoreBase64: true, dimensions: 16 });
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("PAL_MODEL_EMBEDDING", "fake-embed");
    const [v] = await client().embed(["hello"], { purpose: "x.embed" });
    expect(v).toHaveLength(16);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });
});

describe("batch lines", () => {
  it("ask with the online call's budget, and a line cut off at it is recorded as such, never cached", async () => {
    fake.setResponder(() => ({ content: '{"score": 1}', finishReason: "length" }));
    const c = client();
    const calls: CollectedCall[] = [];
    await expect(
      c.collecting((call) => calls.push(call)).chat({ role: "judge", messages: ask("batch"), schema: Verdict, purpose: "x.judge" }),
    ).rejects.toThrow(DeferredCallError);
    const batch = await submitBatch(db, c, calls, null);
    await vi.waitFor(() => expect(fake.batch.batches[0]?.status).toBe("completed"));
    expect(sentBudget(0)).toBe(1024);
    await pollBatch(db, c, batch, new Map(calls.map((x) => [x.cacheKey, x])));
    expect(ledger().map((x) => [x.status, x.error])).toEqual([["invalid", "batch: cut off at max_tokens (1024 tokens)"]]);
    expect(db.select().from(llmCache).all()).toHaveLength(0);
  });
});
