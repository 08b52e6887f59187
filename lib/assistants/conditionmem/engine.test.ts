import { describe, expect, it } from "vitest";
import { scriptChat, testSession as session } from "../baselines/script-chat";
import { conditionmemImpliedCalls, conditionmemStep, initialConditionMemState } from "./engine";

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
