import { describe, expect, it } from "vitest";
import type { BaselineSession } from "./types";
import { scriptChat } from "./script-chat";
import { initialRecurSumState, recursumImpliedCalls, recursumStep } from "../recursum/engine";
import { conditionmemImpliedCalls, conditionmemStep, initialConditionMemState } from "../conditionmem/engine";
import { initialLdAgentState, ldAgentImpliedCalls, ldAgentStep } from "../ld-agent/engine";

const DAY = 86_400_000;
const session = (seq: number, turns: [string, string][], logs: string[] = []): BaselineSession => ({
  seq,
  sampleKey: `u_sample${seq}`,
  at: Date.UTC(2024, 0, 1) + seq * 7 * DAY,
  date: `2024-01-${String(1 + seq * 7).padStart(2, "0")} 20:00:00`,
  logs: logs.map((content, i) => ({ timestamp: `2024-01-0${1 + i} 09:00`, content })),
  turns: turns.map(([user, assistant]) => ({ user, assistant })),
});

describe("RecurSum build step", () => {
  it("folds each session into the dialogue summary and the log summary, one call each", async () => {
    const { chat, calls } = scriptChat((purpose, user) => ({ summary: `${purpose}#${(user.match(/S\d/g) ?? []).join(",")}` }));
    let state = initialRecurSumState();
    const sessions = [
      session(0, [["S0 hello", "hi"]], ["S0 jogged"]),
      session(1, [["S1 plan a trip", "ok"]], []),
      session(2, [], ["S2 slept late"]),
    ];
    const all = [];
    for (const s of sessions) {
      const r = await recursumStep({ chat, lang: "en" }, state, s);
      state = r.state;
      all.push(...r.entries);
    }
    expect(calls.map((c) => c.purpose)).toEqual([
      "recursum.dialogue-summary",
      "recursum.log-summary",
      "recursum.dialogue-summary",
      "recursum.log-summary",
    ]);
    expect(recursumImpliedCalls(sessions)).toBe(calls.length);
    // M_1 is built from M_0 and session 1's dialogue only.
    expect(calls[2].user).toContain("recursum.dialogue-summary#S0");
    expect(calls[2].user).toContain("S1 plan a trip");
    expect(calls[2].user).not.toContain("S0 jogged");
    expect(state.dialogueSummary).toBe("recursum.dialogue-summary#S0,S1");
    expect(all.map((e) => [e.kind, e.key, e.visibleFrom])).toEqual([
      ["dialogue-summary", "M", 1],
      ["log-summary", "L", 1],
      ["dialogue-summary", "M", 2],
      ["log-summary", "L", 3],
    ]);
  });
});

describe("ConditionMem build step", () => {
  it("decides per user input and builds a record only for a yes, from the context before it", async () => {
    const { chat, calls } = scriptChat((purpose, user) =>
      purpose === "conditionmem.decision"
        ? { decision: /prefer|need/.test(user) ? "yes" : "no" }
        : { context: "NaN", summary: `why: ${user.split("User input: ")[1]}`, note: "remember it" },
    );
    const s = session(3, [
      ["Hello there", "Hi!"],
      ["I need a quiet gym near work", "Try the one on Elm St."],
      ["What time is it?", "Nine."],
      ["I prefer mornings", "Noted."],
    ]);
    const r = await conditionmemStep({ chat, lang: "en" }, initialConditionMemState(), s);
    const decisions = calls.filter((c) => c.purpose === "conditionmem.decision");
    const records = calls.filter((c) => c.purpose === "conditionmem.record");
    expect(decisions).toHaveLength(4);
    expect(records).toHaveLength(2);
    expect(conditionmemImpliedCalls(4, r.state.remembered)).toBe(calls.length);
    // The record for turn 4 sees turns 1-3 but not its own assistant answer.
    const last = records.find((c) => c.user.includes("User input: I prefer mornings"))!;
    expect(last.user).toContain("Assistant: Nine.");
    expect(last.user).not.toContain("Noted.");
    expect(r.state.records.map((x) => [x.turn, x.summary])).toEqual([
      [2, "why: I need a quiet gym near work"],
      [4, "why: I prefer mornings"],
    ]);
    expect(r.entries.map((e) => e.key)).toEqual(["3:turn_2", "3:turn_4"]);
    expect(r.entries.every((e) => e.visibleFrom === 4)).toBe(true);
  });
});

describe("LD-Agent build step", () => {
  it("flushes the previous session into an event on arrival and extracts personas per utterance", async () => {
    const { chat, calls } = scriptChat((purpose, user) =>
      purpose === "ld-agent.event-summary"
        ? { summary: `event of ${(user.match(/U\d/g) ?? []).join(",")}` }
        : { traits: user.includes("swim") ? ["swims"] : [] },
    );
    const nouns = (text: string) => (text.match(/U\d/g) ?? []).map((x) => x.toLowerCase());
    const ctx = { chat, lang: "en" as const, nouns };
    const s0 = session(0, [["U0 I swim daily", "A0 great"]]);
    const s1 = session(1, [["U1 tired", "A1 rest"]]);
    const r0 = await ldAgentStep(ctx, initialLdAgentState(), s0);
    expect(calls.map((c) => c.purpose)).toEqual(["ld-agent.persona", "ld-agent.persona"]);
    expect(r0.state.cache.map((u) => u.text)).toEqual(["U0 I swim daily", "A0 great"]);
    expect(r0.state.userPersona).toEqual([{ seq: 0, turn: 1, trait: "swims" }]);
    const r1 = await ldAgentStep(ctx, r0.state, s1);
    const summaries = calls.filter((c) => c.purpose === "ld-agent.event-summary");
    expect(summaries).toHaveLength(1);
    expect(summaries[0].user).toContain("User: U0 I swim daily");
    expect(summaries[0].user).not.toContain("U1");
    const ev = r1.entries.find((e) => e.kind === "event")!;
    expect(ev.visibleFrom).toBe(1); // made of session 0 only: usable when answering in session 1
    expect(ev.content).toMatchObject({ summary: "event of U0", nouns: ["u0"], seqs: [0] });
    expect(r1.state.cache.map((u) => u.seq)).toEqual([1, 1]);
    expect(ldAgentImpliedCalls([s0, s1])).toBe(calls.length);
  });
});
