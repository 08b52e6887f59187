import { describe, expect, it } from "vitest";
import type { BaselineSession, MakeIndex, SearchIndex } from "../baseline-types";
import { scriptChat } from "../testing/script-chat";
import { initialMemoryBankState, memorybankImpliedCalls, memorybankStep } from "./engine";

const DAY = 86_400_000;
const session = (seq: number, turns: [string, string][]): BaselineSession => ({
  seq,
  sampleKey: `s${seq}`,
  at: seq * 7 * DAY,
  date: `day ${seq * 7}`,
  logs: [],
  turns: turns.map(([user, assistant]) => ({ user, assistant })),
});

/** Word-overlap ranking, enough to tell which piece a query recalls in this unit test. */
const overlapIndex: MakeIndex = <T,>() => {
  const docs: { id: string; text: string; meta?: unknown }[] = [];
  const index: SearchIndex<unknown> = {
    add: async (d) => void docs.push(...d),
    search: async (q, k = 3) => {
      const words = new Set(q.toLowerCase().split(/\W+/).filter(Boolean));
      return docs
        .map((doc) => ({ id: doc.id, doc, score: doc.text.toLowerCase().split(/\W+/).filter((w) => words.has(w)).length }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
  };
  return index as SearchIndex<T>;
};

describe("MemoryBank build step", () => {
  it("stores turns and an event, folds the globals forward, and reinforces what a later session recalls", async () => {
    const { chat, calls } = scriptChat((purpose, user) =>
      purpose.endsWith("portrait") ? { portrait: `${purpose}(${user.length})` } : { summary: `${purpose}:${user.includes("swim") ? "swim" : "other"}` },
    );
    const ctx = { chat, lang: "en" as const, makeIndex: overlapIndex, k: 1 };
    const s0 = session(0, [["I love swimming", "Nice"]]);
    const s1 = session(1, [["any swimming pools nearby?", "Two."]]);
    const r0 = await memorybankStep(ctx, initialMemoryBankState(), s0);
    expect(calls.map((c) => c.purpose).sort()).toEqual(
      ["memorybank.daily-portrait", "memorybank.event", "memorybank.global-portrait", "memorybank.global-summary"].sort(),
    );
    expect(r0.state.pieces.map((p) => [p.id, p.strength, p.lastRecalledAt])).toEqual([
      ["turn:0:1", 1, 0],
      ["event:0", 1, 0],
    ]);
    const r1 = await memorybankStep(ctx, r0.state, s1);
    expect(calls).toHaveLength(memorybankImpliedCalls([s0, s1]));
    // "swimming" in session 1 recalls the top-1 earlier piece: strength 2, clock reset to session 1's time.
    const turn0 = r1.state.pieces.find((p) => p.id === "turn:0:1")!;
    expect([turn0.strength, turn0.lastRecalledAt]).toEqual([2, 7 * DAY]);
    expect(r1.state.pieces.find((p) => p.id === "event:0")!.strength).toBe(1);
    expect(r1.entries.find((e) => e.key === "turn:0:1")?.visibleFrom).toBe(2);
    // The global summary of session 1 is built from session 0's global summary and session 1's event.
    const g1 = calls.filter((c) => c.purpose === "memorybank.global-summary")[1];
    expect(g1.user).toContain("memorybank.global-summary:swim");
    expect(g1.user).toContain("memorybank.event:swim");
    expect(r1.state.globalSummary).toBe("memorybank.global-summary:swim");
  });
});
