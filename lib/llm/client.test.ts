import { describe, expect, it } from "vitest";
import { z } from "zod";
import Database from "better-sqlite3";
import { ask, llmClientPerTest, Req } from "@/test/llm-client-env";
import { llmCache } from "@/db/schema";
import { ModelCallError } from "./errors";
import { SpendGuard } from "./spend-guard";

const env = llmClientPerTest();
const { client, ledger } = env;

describe("ModelClient.chat", () => {
  it("answers a second identical request from the persistent cache, at no charge; a replicate index is a new request", async () => {
    env.fake.setResponder(() => ({
      content: `{"requirement": "r${env.fake.chatRequests.length}"}`,
      promptTokens: 11,
      completionTokens: 5,
      cachedTokens: 4,
      reasoningTokens: 2,
    }));
    const c = client({ origin: {} });
    const a = await c.chat({ messages: ask("hello"), schema: Req, purpose: "test.cache" });
    expect(a).toMatchObject({
      value: { requirement: "r1" },
      cacheHit: false,
      usage: { promptTokens: 11, completionTokens: 5, cachedTokens: 4, reasoningTokens: 2 },
    });
    // A new client (a new process) still hits the cache.
    const b = await client().chat({ messages: ask("hello"), schema: Req, purpose: "test.cache" });
    expect(b).toMatchObject({ value: { requirement: "r1" }, cacheHit: true, usage: { promptTokens: 0 } });
    const r1 = await client().chat({ messages: ask("hello"), schema: Req, purpose: "test.cache", replicate: 1 });
    expect(r1.value.requirement).toBe("r2");
    expect(env.fake.chatRequests).toHaveLength(2);
    const rows = ledger();
    expect(rows.map((r) => [r.cacheHit, r.status, r.replicate, r.promptTokens, r.cachedTokens, r.reasoningTokens])).toEqual([
      [false, "ok", 0, 11, 4, 2],
      [true, "ok", 0, 0, 0, 0],
      [false, "ok", 1, 11, 4, 2],
    ]);
    expect(env.db.select().from(llmCache).all()).toHaveLength(2);
  });

  it("asks again when a cached reply no longer validates (a changed schema), and caches the new answer", async () => {
    env.fake.enqueue('{"requirement": "old"}', '{"requirement": "new", "score": 2}');
    await client().chat({ messages: ask("same"), schema: Req, purpose: "test.schema" });
    const Scored = z.object({ requirement: z.string(), score: z.number() });
    const r = await client().chat({ messages: ask("same"), schema: Scored, purpose: "test.schema" });
    expect(r).toMatchObject({ cacheHit: false, value: { requirement: "new", score: 2 } });
    const again = await client().chat({ messages: ask("same"), schema: Scored, purpose: "test.schema" });
    expect(again.cacheHit).toBe(true);
    expect(env.fake.chatRequests).toHaveLength(2);
  });

  it("makes concurrent identical requests once", async () => {
    env.fake.setResponder(() => ({ content: '{"requirement": "same"}', delayMs: 150 }));
    const c = client();
    const results = await Promise.all([1, 2, 3].map(() => c.chat({ messages: ask("together"), schema: Req, purpose: "test.dedupe" })));
    expect(results.map((r) => r.value.requirement)).toEqual(["same", "same", "same"]);
    expect(env.fake.chatRequests).toHaveLength(1);
    expect(results.filter((r) => r.cacheHit)).toHaveLength(2);
    expect(c.stats).toMatchObject({ requests: 1, cacheHits: 2 });
  });

  it("makes concurrent identical requests once under a spend guard too (the call is in flight before the guard is awaited)", async () => {
    env.fake.setResponder(() => ({ content: '{"requirement": "same"}', delayMs: 50 }));
    const c = client().withGuard(new SpendGuard({ onTrip: () => {} }));
    const results = await Promise.all([1, 2].map(() => c.chat({ messages: ask("guarded"), schema: Req, purpose: "test.dedupe.guard" })));
    expect(results.map((r) => r.value.requirement)).toEqual(["same", "same"]);
    expect(env.fake.chatRequests).toHaveLength(1);
  });

  it("retries a 429 after the Retry-After delay, and 500s and dropped connections with backoff", async () => {
    env.fake.enqueue(
      { kind: "status", status: 429, retryAfterSeconds: 1 },
      { kind: "status", status: 500 },
      { kind: "drop" },
      '{"requirement": "ok"}',
    );
    const c = client();
    const started = Date.now();
    const r = await c.chat({ messages: ask("x"), schema: Req, purpose: "test.retry" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.value.requirement).toBe("ok");
    expect(env.fake.chatRequests).toHaveLength(4);
    expect(ledger().map((x) => [x.attempt, x.status, x.error?.slice(0, 8) ?? null])).toEqual([
      [1, "retry", "HTTP 429"],
      [2, "retry", "HTTP 500"],
      [3, "retry", expect.stringMatching(/Conn|Erro/)],
      [4, "ok", null],
    ]);
    expect(c.stats.requests).toBe(4);
  });

  it("times out a hanging request and retries it", async () => {
    env.fake.enqueue({ kind: "hang" }, '{"requirement": "after the hang"}');
    const r = await client({ timeoutMs: 300 }).chat({ messages: ask("slow"), schema: Req, purpose: "test.hang" });
    expect(r.value.requirement).toBe("after the hang");
    expect(ledger().map((x) => [x.status, x.error])).toEqual([
      ["retry", "timeout"],
      ["ok", null],
    ]);
  });

  it("gives up after the retry limit and records the failure", async () => {
    env.fake.setFault(() => ({ kind: "status", status: 503 }));
    const err = await client({ retries: 2 })
      .chat({ messages: ask("down"), purpose: "test.down" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err.reason).toBe("transport");
    expect(ledger().map((x) => x.status)).toEqual(["retry", "retry", "failed"]);
    expect(env.db.select().from(llmCache).all()).toHaveLength(0);
  });

  it("does not retry a 400 or 401 (a bad request stays bad)", async () => {
    env.fake.enqueue({ kind: "status", status: 401 });
    const err = await client()
      .chat({ messages: ask("x"), purpose: "test.401" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(env.fake.chatRequests).toHaveLength(1);
    expect(ledger().map((x) => [x.status, x.error?.slice(0, 8)])).toEqual([["failed", "HTTP 401"]]);
  });

  it("regenerates a reply that is not valid JSON, then records the failure with the raw reply", async () => {
    env.fake.enqueue("not json at all", '```json\n{"requirement": "fixed"}\n```');
    const c = client();
    const r = await c.chat({ messages: ask("q"), schema: Req, purpose: "test.regen" });
    expect(r.value.requirement).toBe("fixed");
    // The second request carried the rejected reply and what was wrong with it.
    expect(env.fake.chatRequests[1].messages.at(-2)).toEqual({ role: "assistant", content: "not json at all" });
    expect(String(env.fake.chatRequests[1].messages.at(-1)!.content)).toMatch(/could not be used/);

    env.fake.setResponder(() => '{"wrong": "shape"}');
    const err = await c.chat({ messages: ask("q2"), schema: Req, purpose: "test.regen-fail" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toMatchObject({ reason: "invalid", rawReply: '{"wrong": "shape"}', exitCode: 3 });
    const rows = ledger().filter((x) => x.purpose === "test.regen-fail");
    expect(rows.map((x) => x.status)).toEqual(["invalid", "invalid", "failed"]);
    expect(rows.at(-1)).toMatchObject({ rawReply: '{"wrong": "shape"}', error: expect.stringMatching(/requirement/) });
    // Nothing invalid was cached: asking again asks the model again.
    const before = env.fake.chatRequests.length;
    await c.chat({ messages: ask("q2"), schema: Req, purpose: "test.regen-fail" }).catch(() => undefined);
    expect(env.fake.chatRequests.length).toBe(before + 3);
  });

  it("regenerates a reply in the wrong language", async () => {
    env.fake.enqueue(
      '{"requirement": "The user wants a quiet place to rest on the weekend."}',
      '{"requirement": "用户希望周末找个安静的地方休息。"}',
    );
    const r = await client().chat({ messages: ask("问题"), schema: Req, language: "zh", purpose: "test.lang" });
    expect(r.value.requirement).toMatch(/安静/);
    expect(ledger().map((x) => [x.status, x.error])).toEqual([
      ["invalid", "the reply is not in the data set's language (zh)"],
      ["ok", null],
    ]);
    expect(String(env.fake.chatRequests[1].messages.at(-1)!.content)).toMatch(/中文/);
  });

  it("keeps to the per-role concurrency limit", async () => {
    let active = 0;
    let peak = 0;
    env.fake.setResponder(() => ({ content: "ok", delayMs: 60 }));
    const c = client({ concurrency: { assistant: 2 } });
    const orig = env.fake.chatRequests.push.bind(env.fake.chatRequests);
    env.fake.chatRequests.push = (...x) => {
      active++;
      peak = Math.max(peak, active);
      setTimeout(() => active--, 55);
      return orig(...x);
    };
    await Promise.all([1, 2, 3, 4, 5, 6].map((i) => c.chat({ messages: ask(`q${i}`), purpose: "test.limit" })));
    expect(env.fake.chatRequests).toHaveLength(6);
    expect(peak).toBe(2);
  });

  it("writes the replies that arrive together in one transaction, and a call resolves with its rows committed", async () => {
    let transactions = 0;
    const begin = env.db.$client.transaction.bind(env.db.$client);
    env.db.$client.transaction = ((fn: (...a: unknown[]) => unknown) => {
      const tx = begin(fn);
      return Object.assign((...a: unknown[]) => (transactions++, tx(...a)), tx);
    }) as typeof env.db.$client.transaction;
    // Eight requests in flight together, answered about together.
    env.fake.setResponder(() => ({ content: '{"requirement": "r"}', delayMs: 20 }));
    const c = client({ concurrency: { assistant: 8 } });
    const calls = [1, 2, 3, 4, 5, 6, 7, 8].map(async (i) => {
      const r = await c.chat({ messages: ask(`q${i}`), schema: Req, purpose: "test.group" });
      // Committed: another connection sees this call's ledger row and cache entry.
      const other = new Database(env.file, { readonly: true });
      const seen = other.prepare(
        "SELECT (SELECT count(*) FROM llm_calls WHERE cache_key = ?) + (SELECT count(*) FROM llm_cache WHERE key = ?) n",
      );
      const n = (seen.get(r.cacheKey, r.cacheKey) as { n: number }).n;
      other.close();
      return n;
    });
    expect(await Promise.all(calls)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(env.fake.chatRequests).toHaveLength(8);
    expect(transactions).toBeLessThan(8);
  });

  it("uses a named judge configuration that falls back to the judge role", async () => {
    const r = await client().chat({ role: "judge", config: "judge:gscore", messages: ask("rate"), purpose: "test.judge" });
    expect(r.text).toBe("echo: rate");
    expect(env.fake.chatRequests[0].model).toBe("fake-judge");
    expect(ledger()[0]).toMatchObject({ role: "judge", config: "judge:gscore", model: "fake-judge" });
  });
});

describe("replies of reasoning models, JSON mode, refused requests", () => {
  it("parses a free-text reply with `parse`, asking again with the parser's reason, and caches only the accepted reply", async () => {
    env.fake.enqueue("<think>which one?</think>maybe", "<think>B then</think>Verdict: B");
    const parse = (s: string) => {
      const m = /^Verdict: ([AB])$/.exec(s.trim());
      if (!m) throw new Error("no verdict line");
      return m[1];
    };
    const r = await client().chat({ messages: ask("pick"), parse, purpose: "test.parse" });
    expect(r).toMatchObject({ value: "B", text: "Verdict: B" });
    expect(env.fake.chatRequests[1].messages.at(-1)?.content).toMatch(/no verdict line/);
    expect(ledger().map((c) => [c.status, c.rawReply])).toEqual([
      ["invalid", "<think>which one?</think>maybe"],
      ["ok", "<think>B then</think>Verdict: B"],
    ]);
    expect(
      env.db
        .select()
        .from(llmCache)
        .all()
        .map((c) => c.response),
    ).toEqual(["Verdict: B"]);
  });

  it("sends a request the endpoint refuses (400 context length) once, and says so on the error", async () => {
    env.fake.setFault(() => ({ kind: "status", status: 400, message: "maximum context length is 8192 tokens" }));
    const e = await client({ retries: 3 })
      .chat({ messages: ask("long"), schema: Req, purpose: "test.400" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelCallError);
    expect((e as ModelCallError).deterministic).toBe(true);
    expect(env.fake.chatRequests).toHaveLength(1);
    expect(ledger().map((c) => c.status)).toEqual(["failed"]);
  });
});
