import { describe, expect, it } from "vitest";
import type { BaselineSession, MakeIndex } from "../baselines/types";
import { createRetriever } from "@/lib/retrieval";
import { scriptChat } from "../baselines/script-chat";
import { initialMemoryBankState, memorybankImpliedCalls, memorybankStep } from "./engine";
import { memorybankRecall } from "./recall";

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
    // threshold 0: nothing is forgotten (no age limit in the newest code), so this test sees recall alone
    const ctx = { chat, lang: "en" as const, makeIndex: bm25, k: 1, forget: { kind: "threshold" as const, threshold: 0 } };
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

  // The 0cc7111 curve, threshold rule 0.3, k = 1. Sessions at days 0, 1, 3 (R = e^(−t/S), t in days):
  //   day 1: turn:0:1 and event:0 have t = 1, S = 1 → R = 0.368 ≥ 0.3, kept; "swimming" recalls turn:0:1 → S = 2.
  //   day 3: turn:0:1 t = 2, S = 2 → R = 0.368 kept; event:0 t = 3 → 0.050, turn:1:1 and event:1 t = 2,
  //          S = 1 → 0.135: all three forgotten. "pools nearby?" matches turn:1:1 best, but it is gone, so the
  //          one live piece, turn:0:1, is the top 1 → S = 3. A fourth recall would leave S at the cap 3.
  it("0cc7111: forgets at each session's arrival before recalling, never revives a forgotten piece, and caps S at 3", async () => {
    const { chat } = scriptChat((purpose) => (purpose.endsWith("portrait") ? { portrait: "p" } : { summary: "summary" }));
    const forget = { kind: "threshold" as const, threshold: 0.3, curve: "0cc7111" as const };
    const ctx = { chat, lang: "en" as const, makeIndex: bm25, k: 1, forget };
    const at = (seq: number, day: number, user: string): BaselineSession => ({
      ...session(seq, [[user, "ok"]]),
      at: day * DAY,
      date: `day ${day}`,
    });
    const r0 = await memorybankStep(ctx, initialMemoryBankState(), at(0, 0, "I love swimming"));
    const r1 = await memorybankStep(ctx, r0.state, at(1, 1, "any swimming pools nearby?"));
    expect(r1.state.pieces.find((p) => p.id === "turn:0:1")!.strength).toBe(2);
    expect(r1.state.pieces.every((p) => p.forgottenAt === undefined)).toBe(true);
    const r2 = await memorybankStep(ctx, r1.state, at(2, 3, "pools nearby?"));
    const byId = Object.fromEntries(r2.state.pieces.map((p) => [p.id, p]));
    expect([byId["turn:1:1"].strength, byId["turn:1:1"].forgottenAt]).toEqual([1, 3 * DAY]);
    expect(byId["event:0"].forgottenAt).toBe(3 * DAY);
    expect(byId["event:1"].forgottenAt).toBe(3 * DAY);
    expect([byId["turn:0:1"].strength, byId["turn:0:1"].forgottenAt]).toEqual([3, undefined]);
    // the forgetting is recorded as a new version of the piece, hidden from session 2's own answers on
    expect(r2.entries.find((e) => e.key === "turn:1:1")).toMatchObject({ visibleFrom: 2, callKeys: [] });
    const r3 = await memorybankStep(ctx, r2.state, at(3, 4, "swimming again"));
    expect(r3.state.pieces.find((p) => p.id === "turn:0:1")!.strength).toBe(3); // capped
    // answering keeps forgotten pieces out even when the rule itself would keep everything (threshold 0)
    const ans = await memorybankRecall(bm25, 5, "pools nearby", r2.state.pieces, 3 * DAY, { ...forget, threshold: 0 });
    expect(ans.retrieved.map((p) => p.id).sort()).toEqual(["event:2", "turn:0:1", "turn:2:1"]);
  });

  // PAL-Set's shape: sessions about 10 days apart, at an evening hour, several turns each. Under the
  // 0cc7111 rule a piece survives one gap with p = e^−10, so an answer finds nothing; the newest code's
  // curve (e^(−10/5) = 0.135 per turn at S = 1) keeps some of each day, and a day's summary while any of
  // its turns is left.
  it("on real-shaped dates the newest code's curve keeps memories that the 0cc7111 rule loses", async () => {
    const topics = ["swimming", "cooking", "hiking", "piano", "garden", "camera", "chess", "running"];
    const sessions = topics.map((topic, j): BaselineSession => ({
      seq: j,
      sampleKey: `s${j}`,
      at: Date.UTC(2024, 2, 1 + 10 * j + (j % 3), 19, 20 + j),
      date: new Date(Date.UTC(2024, 2, 1 + 10 * j + (j % 3))).toISOString().slice(0, 10),
      logs: [],
      turns: Array.from({ length: 10 }, (_, i) => ({ user: `about my ${topic} plan number ${i}`, assistant: "noted" })),
    }));
    const last = sessions.at(-1)!;
    const built = async (forget: { kind: "sample"; seed: number; curve?: "as-written" | "intended" | "0cc7111" }) => {
      const { chat } = scriptChat((purpose) => (purpose.endsWith("portrait") ? { portrait: "p" } : { summary: "a summary" }));
      let state = initialMemoryBankState();
      for (const s of sessions.slice(0, -1))
        state = (await memorybankStep({ chat, lang: "en", makeIndex: bm25, k: 3, forget }, state, s)).state;
      return { state, answer: await memorybankRecall(bm25, 3, "my plan", state.pieces, last.at, forget) };
    };
    const old = await built({ kind: "sample", seed: 42, curve: "0cc7111" });
    expect(old.answer.retrieved).toEqual([]);
    for (const curve of [undefined, "intended"] as const) {
      const now = await built({ kind: "sample", seed: 42, curve });
      expect(now.answer.retrieved.length, `curve ${curve ?? "default"}`).toBe(3);
      const live = now.state.pieces.filter((p) => p.forgottenAt === undefined);
      // a day's summary stays exactly while one of its turns does
      for (const e of now.state.pieces.filter((p) => p.kind === "event"))
        expect(e.forgottenAt === undefined, `event ${e.seq}`).toBe(live.some((p) => p.kind === "turn" && p.seq === e.seq));
      expect(live.filter((p) => p.kind === "turn").length).toBeGreaterThan(3);
    }
  });
});
