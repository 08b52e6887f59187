import { describe, expect, it } from "vitest";
import type { BaselineSession, MakeIndex } from "../baseline-types";
import { createRetriever } from "@/lib/retrieval";
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

const bm25: MakeIndex = <T>() => createRetriever<T>("bm25", {});

describe("MemoryBank build step", () => {
  it("stores turns and an event, folds the globals forward, and reinforces what a later session recalls", async () => {
    const { chat, calls } = scriptChat((purpose, user) =>
      purpose.endsWith("portrait")
        ? { portrait: `${purpose}(${user.length})` }
        : { summary: `${purpose}:${/swim|:S\b/.test(user) ? "S" : "O"}` },
    );
    const ctx = { chat, lang: "en" as const, makeIndex: bm25, k: 1 };
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
    expect(g1.user).toContain("memorybank.global-summary:S");
    expect(g1.user).toContain("memorybank.event:S");
    expect(r1.state.globalSummary).toBe("memorybank.global-summary:S");
  });
});
