import { describe, expect, it } from "vitest";
import { flushOnArrival, pushAll, pushUtterance, type CachedUtterance } from "./short-term";

const H = 3600_000;
const u = (at: number, text: string, seq = 0): CachedUtterance => ({ at, speaker: "user", text, seq });

describe("LD-Agent short-term cache", () => {
  it("keeps utterances within β and flushes the whole cache when the gap exceeds β", () => {
    const a = pushUtterance([], u(0, "a"));
    expect(a.flushed).toBeNull();
    const b = pushUtterance(a.cache, u(H, "b")); // exactly β: not more than β, stays
    expect(b.flushed).toBeNull();
    expect(b.cache.map((x) => x.text)).toEqual(["a", "b"]);
    const c = pushUtterance(b.cache, u(2 * H + 1, "c")); // 1 h + 1 ms after b
    expect(c.flushed?.map((x) => x.text)).toEqual(["a", "b"]);
    expect(c.cache.map((x) => x.text)).toEqual(["c"]);
  });

  it("turns sessions days apart into one flushed batch each", () => {
    const day = 24 * H;
    const r = pushAll([], [u(0, "s0a", 0), u(0, "s0b", 0), u(day, "s1a", 1), u(3 * day, "s2a", 2)]);
    expect(r.flushed.map((b) => b.map((x) => x.text))).toEqual([["s0a", "s0b"], ["s1a"]]);
    expect(r.cache.map((x) => x.text)).toEqual(["s2a"]);
  });

  it("a session's arrival flushes the earlier cache without adding the session itself", () => {
    const r = flushOnArrival([u(0, "old")], 2 * H);
    expect(r.flushed?.map((x) => x.text)).toEqual(["old"]);
    expect(r.cache).toEqual([]);
    expect(flushOnArrival([u(0, "old")], H / 2).flushed).toBeNull();
    expect(flushOnArrival([], 10 * H).flushed).toBeNull();
  });
});
