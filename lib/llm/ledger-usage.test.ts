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
import { drainModelRequests, resumeModelRequests } from "./inflight";

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
});
