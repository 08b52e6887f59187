import { describe, expect, it } from "vitest";
import { scriptChat, testSession as session } from "../baselines/script-chat";
import { initialLdAgentState, ldAgentImpliedCalls, ldAgentStep } from "./engine";

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
