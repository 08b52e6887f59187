/**
 * A request that reached the endpoint and got no usage back (a timeout, a connection dropped after it
 * was sent) is recorded with its tokens unknown, not as 0 tokens; a refusal with an HTTP status, or a
 * connection that never opened, used nothing (issue 27.4). Against the TEST DOUBLE over real HTTP.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asc } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { llmCalls } from "@/db/schema";
import { ModelClient } from "./client";
import { summarizeCalls } from "./ledger";
import { abandonModelRequests, drainModelRequests, inFlight, resumeModelRequests } from "./inflight";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
beforeEach(async () => {
  fake = await startFakeOpenAI();
  t = tempDb();
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "fake-assistant");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
});

const ask = (c: ModelClient, content: string) =>
  c.chat({ messages: [{ role: "user", content }], purpose: "test.usage" }).then(
    () => "ok",
    () => "failed",
  );
const rows = () =>
  t.db
    .select({ status: llmCalls.status, error: llmCalls.error, unknown: llmCalls.usageUnknown, p: llmCalls.promptTokens })
    .from(llmCalls)
    .orderBy(asc(llmCalls.id))
    .all();

describe("the ledger's tokens of requests that got no usage back", () => {
  it("a timeout and a connection dropped mid-reply are unknown; an HTTP error and a refused connection used nothing", async () => {
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    const c = ModelClient.create(t.db, { retries: 0, timeoutMs: 300 });
    const faults = [{ kind: "hang" as const }, { kind: "midbody" as const }, { kind: "status" as const, status: 500 as const }];
    fake.setFault((_req, i) => faults[i]);
    expect(await ask(c, "a")).toBe("failed");
    expect(await ask(c, "b")).toBe("failed");
    expect(await ask(c, "c")).toBe("failed");

    // A port nothing listens on: the request never left.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    vi.stubEnv("OPENAI_BASE_URL", `http://127.0.0.1:${port}/v1`);
    expect(await ask(ModelClient.create(t.db, { retries: 0, timeoutMs: 300 }), "d")).toBe("failed");

    expect(rows()).toEqual([
      { status: "failed", error: "timeout", unknown: true, p: 0 },
      { status: "failed", error: expect.stringMatching(/Connection error|terminated|fetch failed/i), unknown: true, p: 0 },
      { status: "failed", error: expect.stringMatching(/^HTTP 500/), unknown: false, p: 0 },
      { status: "failed", error: expect.stringMatching(/Connection error/i), unknown: false, p: 0 },
    ]);
  });

  it("the summary counts them apart", async () => {
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    const c = ModelClient.create(t.db, { retries: 1, retryBaseMs: 5, timeoutMs: 300 }).withOrigin({
      experimentId: 7,
    });
    fake.setFault((_req, i) => (i === 0 ? { kind: "hang" } : undefined));
    expect(await ask(c, "a")).toBe("ok");
    const s = summarizeCalls(t.db, { experimentId: 7 });
    expect(s).toMatchObject({ requests: 2, usageUnknown: 1 });
    expect(s.promptTokens).toBe(fake.served.promptTokens);
  });

  it("a process that cannot wait for a reply records the request as sent with its tokens unknown, once", async () => {
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    const c = ModelClient.create(t.db, { retries: 0, timeoutMs: 5000 });
    fake.setFault(() => ({ kind: "hang" }));
    const call = ask(c, "a");
    while (fake.chatRequests.length === 0) await new Promise((r) => setTimeout(r, 10));
    // Interrupted: it waits 50 ms, then records what is still out; nothing new is sent meanwhile.
    expect(await drainModelRequests(undefined, { maxWaitMs: 50 })).toBe(1);
    resumeModelRequests();
    expect(await call).toBe("failed");
    expect(rows()).toEqual([{ status: "failed", error: expect.stringMatching(/process stopped before the reply/), unknown: true, p: 0 }]);
  });

  it("interrupted, it cuts the streams (counted from their chunks) and waits, within a bound, for the whole replies a cut would leave unknown", async () => {
    // 40.9: a paused build's ledger held 3.9% fewer completion tokens than the server generated.
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    fake.setResponder((req) =>
      JSON.stringify(req.messages).includes("long")
        ? { content: "s".repeat(300), completionTokens: 150, chunkMs: 10 }
        : { content: "whole", promptTokens: 4, completionTokens: 7, delayMs: 600 },
    );
    const c = ModelClient.create(t.db, { retries: 0, timeoutMs: 10_000, streamMinTokens: 500 });
    const long = c
      .chat({ messages: [{ role: "user", content: "long" }], purpose: "test.stream", maxTokens: 1000 })
      .catch((e: unknown) => e);
    const short = c.chat({ messages: [{ role: "user", content: "short" }], purpose: "test.whole", maxTokens: 50 }).catch((e: unknown) => e);
    while (fake.chatRequests.length < 2 || fake.served.completionTokens < 10) await new Promise((r) => setTimeout(r, 5));
    let whole = 0;
    try {
      expect(await drainModelRequests(undefined, { maxWaitMs: 50, wholeWaitMs: 5000, onWhole: (n) => (whole = n) })).toBe(2);
    } finally {
      resumeModelRequests();
    }
    expect(whole).toBe(1);
    await Promise.all([long, short]);
    const ledger = t.db.select().from(llmCalls).orderBy(asc(llmCalls.id)).all();
    const of = (purpose: string) => ledger.find((r) => r.purpose === purpose)!;
    expect(of("test.whole")).toMatchObject({ status: "ok", usageUnknown: false, completionTokens: 7 });
    expect(of("test.stream")).toMatchObject({ status: "failed", usageUnknown: true });
    expect(of("test.stream").error).toMatch(/process stopped before the reply came .*counted from its chunks/);
    await new Promise((r) => setTimeout(r, 100));
    // Every token the server generated is in the ledger (the few chunks in the wire or the stream's buffer at the cut apart).
    const recorded = ledger.reduce((n, r) => n + r.completionTokens, 0);
    expect(fake.served.completionTokens - recorded).toBeGreaterThanOrEqual(0);
    expect(fake.served.completionTokens - recorded).toBeLessThanOrEqual(3);
  });

  it("a process leaving at once (a second Ctrl+C) first records every request still out, a stream with what it received", async () => {
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    fake.enqueue({ content: "q".repeat(200), completionTokens: 100, chunkMs: 10 });
    const c = ModelClient.create(t.db, { retries: 0, timeoutMs: 10_000, streamMinTokens: 0 });
    const call = ask(c, "go");
    while (fake.served.completionTokens < 5) await new Promise((r) => setTimeout(r, 5));
    expect(abandonModelRequests()).toBe(1);
    // Written at once, before anything else runs: a process.exit right after loses nothing.
    const [row] = t.db.select().from(llmCalls).all();
    expect(row).toMatchObject({ status: "failed", usageUnknown: true });
    expect(inFlight().requests).toBe(0);
    expect(await call).toBe("failed");
    await new Promise((r) => setTimeout(r, 100));
    // What it received: what the server generated, the few chunks in the wire or the stream's buffer at the cut apart (it stopped at the cut).
    expect(row.completionTokens).toBeGreaterThan(0);
    expect(fake.served.completionTokens - row.completionTokens).toBeLessThanOrEqual(3);
  });
});
