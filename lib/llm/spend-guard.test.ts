import { describe, expect, it } from "vitest";
import { RunPausedError, SpendGuard, failureKind } from "./spend-guard";
import type { LedgerRow } from "./ledger";

const row = (status: LedgerRow["status"], extra: Partial<LedgerRow> = {}): LedgerRow => ({
  origin: { jobId: 1 },
  purpose: "t",
  role: "assistant",
  config: "assistant",
  endpoint: "http://x",
  model: "m",
  cacheKey: null,
  cacheHit: false,
  replicate: 0,
  attempt: 1,
  status,
  ...extra,
});
const invalid = () => row("invalid", { error: "the reply contains no JSON value", rawReply: "nope" });

describe("SpendGuard", () => {
  it("trips on the 20th failed attempt when none succeeded, then refuses every attempt", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r) });
    for (let i = 0; i < 19; i++) g.observe(invalid());
    expect(trips).toEqual([]);
    expect(() => g.admit()).not.toThrow();
    g.observe(invalid());
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatch(/first 20 attempts all failed, the last 20 the same way \(invalid reply/);
    expect(() => g.admit()).toThrow(RunPausedError);
    g.observe(invalid());
    expect(trips).toHaveLength(1); // once
  });

  it("does not trip on retried or mixed failures before the first success, only on 20 calls failing the same way", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r) });
    const kinds = ["HTTP 500: boom", "timeout", "HTTP 429: slow", "APIConnectionError: Connection error."];
    for (let i = 0; i < 40; i++) g.observe(row("retry", { error: kinds[i % kinds.length] }));
    expect(trips).toEqual([]);
    // Retried tries of one call do not count; calls that failed for good do.
    for (let i = 0; i < 100; i++) g.observe(row("retry", { error: "HTTP 500: boom" }));
    expect(trips).toEqual([]);
    for (let i = 0; i < 19; i++) g.observe(row("failed", { error: "HTTP 500: boom" }));
    expect(trips).toEqual([]);
    g.observe(row("failed", { error: "HTTP 500: boom" }));
    expect(trips[0]).toMatch(/the last 20 the same way \(HTTP 500/);
  });

  it("does not count cache hits, and one success ends the probe", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r) });
    for (let i = 0; i < 30; i++) g.observe(row("ok", { cacheHit: true }));
    g.observe(row("ok"));
    for (let i = 0; i < 24; i++) g.observe(invalid());
    expect(trips).toEqual([]);
  });

  it("trips when half of the last 50 calls failed the same way, not in different ways, nor for replies a regeneration fixed", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r) });
    g.observe(row("ok"));
    // 49 attempts: alternate ok / HTTP 400 and timeouts, 12 of each kind: no single kind reaches 25 of 50.
    for (let i = 0; i < 25; i++) g.observe(row("ok"));
    for (let i = 0; i < 12; i++) g.observe(row("failed", { error: "HTTP 400: context length exceeded" }));
    for (let i = 0; i < 12; i++) g.observe(row("failed", { error: "timeout" }));
    expect(trips).toEqual([]);
    // Invalid replies that a regeneration fixes are not failed calls, however many there are.
    for (let i = 0; i < 60; i++) g.observe(invalid());
    expect(trips).toEqual([]);
    // The window slides: 13 more HTTP 400s push out oks until 25 of the last 50 are HTTP 400.
    for (let i = 0; i < 13; i++) g.observe(row("failed", { error: "HTTP 400: context length exceeded" }));
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatch(/25 of the last 50 calls failed the same way \(HTTP 400/);
  });

  it("counts a request when it is let through: the call cap refuses the request past it, counting what a resumed run spent", () => {
    const calls: string[] = [];
    const g = new SpendGuard({ maxCalls: 5, spent: { calls: 3, usd: 0 }, onTrip: (r) => calls.push(r) });
    // Two places left: two requests go out together (in flight, no reply yet), the third is refused at once.
    g.admit();
    g.admit();
    expect(calls).toEqual([]);
    expect(g.room()).toBe(0);
    expect(() => g.admit()).toThrow(/spend cap of 5 paid calls/);
    expect(calls).toHaveLength(1);
    // Their replies add nothing more to the count.
    g.observe(row("ok"));
    g.observe(row("ok"));
    expect(calls).toHaveLength(1);
  });

  it("a batch takes at most the places left, and gives back what was not sent", () => {
    const g = new SpendGuard({ maxCalls: 4, onTrip: () => {} });
    g.admit();
    expect(g.reserve(9)).toBe(3);
    expect(g.room()).toBe(0);
    g.unreserve(3);
    expect(g.room()).toBe(3);
    expect(new SpendGuard({ onTrip: () => {} }).reserve(9)).toBe(9);
  });

  it("pauses at a USD cap (prices per million tokens) once replies report it", () => {
    const usd: string[] = [];
    // 1M prompt tokens at $2/M + 0.5M completion at $8/M = $6 per call.
    const h = new SpendGuard({ maxUsd: 10, prices: { assistant: { prompt: 2, completion: 8 } }, onTrip: (r) => usd.push(r) });
    h.observe(row("ok", { promptTokens: 1_000_000, completionTokens: 500_000 }));
    expect(usd).toEqual([]);
    h.observe(row("ok", { promptTokens: 1_000_000, completionTokens: 500_000 }));
    expect(usd[0]).toMatch(/spend cap of \$10 was reached \(\$12\.0000 spent\)/);
    expect(h.room()).toBe(0);
    expect(() => h.admit()).toThrow(RunPausedError);
  });

  it("lets one call at a time through until the first accepted reply", async () => {
    const g = new SpendGuard({ onTrip: () => {} });
    const order: string[] = [];
    const call = async (name: string, ok: boolean) => {
      const release = await g.enter();
      order.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, 5));
      g.observe(ok ? row("ok") : invalid());
      order.push(`end ${name}`);
      release();
    };
    await Promise.all([call("a", false), call("b", true), call("c", true), call("d", true)]);
    expect(order.slice(0, 4)).toEqual(["start a", "end a", "start b", "end b"]);
    // After b's accepted reply, new calls no longer wait for each other.
    const r1 = await g.enter();
    const r2 = await g.enter();
    r1();
    r2();
  });

  it("classifies failures so that like ones group", () => {
    expect(failureKind({ status: "invalid", error: "x", rawReply: "y" })).toBe("invalid reply");
    expect(failureKind({ status: "failed", error: "HTTP 429: slow down", rawReply: null })).toBe("HTTP 429");
    expect(failureKind({ status: "retry", error: "APIConnectionError: Connection error.", rawReply: null })).toBe("connection failed");
    expect(failureKind({ status: "ok", error: null, rawReply: null })).toBeNull();
  });
});

describe("an unreachable endpoint (issue 44.3)", () => {
  const refused = (status: LedgerRow["status"] = "retry") => row(status, { error: "APIConnectionError: Connection error. (ECONNREFUSED)" });

  it("pauses after N attempts in a row that could not connect, retries included, even after earlier successes", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r), connectionFailures: 3 });
    g.observe(row("ok"));
    g.observe(refused());
    g.observe(refused());
    expect(trips).toEqual([]);
    g.observe(refused("failed"));
    expect(trips).toEqual([
      "the endpoint could not be reached (http://x): 3 attempts in a row could not connect (APIConnectionError: Connection error. (ECONNREFUSED))",
    ]);
    expect(() => g.admit()).toThrow(RunPausedError);
  });

  it("any other outcome in between starts the count again", () => {
    const trips: string[] = [];
    const g = new SpendGuard({ onTrip: (r) => trips.push(r), connectionFailures: 3 });
    for (let i = 0; i < 10; i++) {
      g.observe(refused());
      g.observe(refused());
      g.observe(row("retry", { error: "HTTP 500: boom" }));
    }
    expect(trips).toEqual([]);
  });
});
