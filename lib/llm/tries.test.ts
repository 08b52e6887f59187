/** tries.ts: every try of a request admitted by the guard, counted in flight, retried with backoff, and a row per failed try. */
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { drainModelRequests, resumeModelRequests } from "./inflight";
import { prepareCall } from "./request";
import { RunPausedError, SpendGuard } from "./spend-guard";
import { sendChat } from "./transport";
import { retrying } from "./tries";

const env = llmClientPerTest();

/** One chat request through the pipeline's tries, to the fake server. */
function send(core = env.core(), view = viewOf()) {
  const call = prepareCall(core, view, { messages: ask("hi"), purpose: "t.tries" });
  const tries = { n: 0 };
  const r = retrying(
    core,
    view,
    (live) => sendChat(core, call.cfg, call.endpointKey, { model: call.cfg.model, messages: call.o.messages }, 100, live),
    {
      row: call.base,
      tries,
      tokensOf: (c) => c.usage.promptTokens + c.usage.completionTokens,
    },
  );
  return { r, tries, core };
}

describe("retrying", () => {
  it("retries a 500 and a dropped connection, leaving a retry row per failed try with its attempt", async () => {
    env.fake.enqueue({ kind: "status", status: 500 }, { kind: "drop" }, "fine");
    const { r, tries, core } = send();
    expect((await r).content).toBe("fine");
    expect(tries.n).toBe(2);
    expect(core.stats.requests).toBe(3);
    expect(env.ledger().map((x) => [x.status, x.attempt, x.purpose])).toEqual([
      ["retry", 1, "t.tries"],
      ["retry", 2, "t.tries"],
    ]);
    expect(core.sent.size).toBe(0);
  });

  it("gives up after the retry limit with a failed row, and does not retry a 400", async () => {
    env.fake.setFault(() => ({ kind: "status", status: 500 }));
    await expect(send(env.core({ retries: 1 })).r).rejects.toThrow(/500/);
    expect(env.ledger().map((x) => x.status)).toEqual(["retry", "failed"]);
    env.fake.setFault(() => ({ kind: "status", status: 400, message: "bad" }));
    await expect(send().r).rejects.toThrow(/400/);
    expect(env.ledger().map((x) => x.status)).toEqual(["retry", "failed", "failed"]);
  });

  it("sends nothing and records nothing when the run's guard refuses the try", async () => {
    const guard = new SpendGuard({ maxCalls: 0, onTrip: () => {} });
    await expect(send(env.core(), viewOf({ guard })).r).rejects.toBeInstanceOf(RunPausedError);
    expect(env.fake.chatRequests).toHaveLength(0);
    expect(env.ledger()).toHaveLength(0);
  });

  it("a stream the process stops waiting for (Ctrl+C) is cut where its row counts it: the tokens it received, estimated from its chunks", async () => {
    // 40.9: replies abandoned by a pause were missing from the ledger while the server went on generating them.
    const core = env.core({ streamMinTokens: 0, timeoutMs: 10_000 });
    // A server that sends no usage in a stream: the row's tokens are its chunks, counted.
    core.noStreamUsage.add(prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t.tries" }).endpointKey);
    env.fake.enqueue({ content: "z".repeat(400), completionTokens: 200, chunkMs: 10 });
    const { r } = send(core);
    const settled = r.catch((e: unknown) => e);
    while (env.fake.served.completionTokens < 20) await new Promise((ok) => setTimeout(ok, 5));
    try {
      expect(await drainModelRequests(undefined, { maxWaitMs: 0 })).toBe(1);
    } finally {
      resumeModelRequests();
    }
    expect(await settled).toBeInstanceOf(RunPausedError);
    // Long enough for ten more chunks, had the stream gone on.
    await new Promise((ok) => setTimeout(ok, 150));
    const rows = env.ledger();
    expect(rows.map((x) => [x.status, x.usageUnknown, x.promptTokens])).toEqual([["failed", true, 0]]);
    expect(rows[0].error).toMatch(/^the process stopped before the reply came .*cut after \d+ completion tokens, counted from its chunks/);
    // Not ≥ 20: the server had sent 20 when the cut came, one chunk may still have been on the wire (seen in the suite: 19).
    expect(rows[0].completionTokens).toBeGreaterThan(0);
    // The server stopped when the stream was cut: the ledger holds what it generated (the few chunks in the wire or the stream's buffer at the cut apart).
    expect(env.fake.served.completionTokens - rows[0].completionTokens).toBeLessThanOrEqual(3);
    expect(env.fake.served.completionTokens).toBeLessThan(200);
  });
});
