import { describe, expect, it } from "vitest";
import { ReportBuilder, reportUser } from "./report";
import { enData, zhData, type FixtureJson } from "@/test/palset";

function warnings(user: FixtureJson, lang: "zh" | "en" = "en") {
  const rb = new ReportBuilder();
  reportUser(rb, lang, "0000", user);
  return Object.fromEntries(rb.toReport().warnings.map((w) => [w.code, w]));
}

describe("quality report", () => {
  it("a clean user has no warnings", () => {
    expect(warnings(enData()["0000"])).toEqual({});
    expect(warnings(zhData()["0000"], "zh")).toEqual({});
  });

  it("flags CJK text in an English set and English-only text in a Chinese set, with where", () => {
    const u = enData()["0000"];
    u.query[0].topics["topic-1"].requirement = "用户需要一个计划。";
    u.history[0].dialogue.turn_1.user.action = "话题询问";
    const w = warnings(u);
    expect(w["mixed-language"].count).toBe(2);
    expect(w["mixed-language"].examples).toContain('0000.query[0] (0000_sample2).topics.topic-1.requirement: "用户需要一个计划。"');
    const z = zhData()["0000"];
    z.history[0].logs[0].content = "The user searched for something in English.";
    expect(warnings(z, "zh")["mixed-language"].examples).toEqual([
      '0000.history[0] (0000_sample0).logs[0].content: "The user searched for something in Engli…"',
    ]);
  });

  it("unknown actions (kept), other role's actions, dialogues not opening with a Topic Inquiry", () => {
    const u = enData()["0000"];
    u.history[0].dialogue.turn_1.user.action = "Greeting";
    u.history[1].dialogue.turn_2.assistant.action = "Topic Inquiry";
    const w = warnings(u);
    expect(w["unknown-action"].examples).toEqual(['0000.history[0] (0000_sample0).dialogue.turn_1.user.action: "Greeting"']);
    expect(w["role-action"].count).toBe(1);
    expect(w["dialogue-start"].examples).toEqual(["0000.history[0] (0000_sample0).dialogue.turn_1.user.action"]);
    expect(w["topic-count-mismatch"].count).toBe(1); // one inquiry left for two topics
  });

  it("topics whose pos/neg solutions are not among the candidates so marked, and != 2 pos / 2 neg", () => {
    const u = enData()["0000"];
    const t = u.history[0].topics["topic-1"];
    t.solution.pos[0] = "not a candidate";
    t.candidate_solutions[2].feedback = "neu"; // one of the neg ones
    const w = warnings(u);
    expect(w["candidates-missing-solution"].count).toBe(2);
    expect(w["candidates-missing-solution"].examples[0]).toBe("0000.history[0] (0000_sample0).topics.topic-1.solution.pos[0]");
    expect(w["feedback-count"].examples).toEqual(["0000.history[0] (0000_sample0).topics.topic-1.candidate_solutions: 2 pos, 1 neg"]);
    t.candidate_solutions.pop();
    expect(warnings(u)["candidate-count"].count).toBe(1);
  });

  it("empty strings and logs out of chronological order", () => {
    const u = enData()["0000"];
    u.history[1].logs[1].content = "  ";
    u.history[1].logs[3].timestamp = "2024-01-07 08:00";
    u.query[0].logs[1].timestamp = "2024-01-01T00:00:00";
    const w = warnings(u);
    expect(w["empty-string"].examples).toEqual(["0000.history[1] (0000_sample1).logs[1].content"]);
    expect(w["logs-out-of-order"].examples).toEqual([
      "0000.history[1] (0000_sample1).logs[3].timestamp",
      "0000.query[0] (0000_sample2).logs[1].timestamp",
    ]);
  });

  it("keeps at most 5 examples but counts all", () => {
    const u = enData()["0000"];
    for (const s of [...u.history, ...u.query]) for (const l of s.logs) l.content = "";
    const w = warnings(u)["empty-string"];
    expect(w.count).toBe(12);
    expect(w.examples).toHaveLength(5);
  });
});
