import { describe, expect, it } from "vitest";
import { scriptChat, testSession as session } from "../baselines/script-chat";
import { initialRecurSumState, recursumImpliedCalls, recursumStep } from "./engine";

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
