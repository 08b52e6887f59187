import { describe, expect, it } from "vitest";
import { parseAbVerdict, parseYesNo, abJudgeMessages, JudgeParseError, scheduleJudgeMessages } from "./hicupid";
import { gscoreJudgeOutput } from "./gscore";
import { generateTemplate, parseTemplate } from "@/lib/tasks/dialogue/template";
import { simulatorView } from "@/lib/tasks/dialogue/prompts";

describe("judge parsers", () => {
  it("reads the verdict from the final line only", () => {
    expect(parseAbVerdict("1. Personalization: A is better\n2. Logical Validity: B\n\nBetter Response: B")).toBe("B");
    expect(parseAbVerdict("...\nBetter Response: [Tie]")).toBe("Tie");
    expect(() => parseAbVerdict("Better Response: A\nI changed my mind")).toThrow(JudgeParseError);
    expect(parseYesNo("1. Personalization: ok\n\nSatisfaction: YES")).toBe("YES");
    expect(() => parseYesNo("Satisfaction: maybe")).toThrow(JudgeParseError);
  });
  it("G-Score accepts only the judge's scale", () => {
    expect(gscoreJudgeOutput.safeParse({ analysis: "", score: 1.5 }).success).toBe(true);
    expect(gscoreJudgeOutput.safeParse({ analysis: "", score: 0.7 }).success).toBe(false);
  });
  it("persona items show relation + entity only; profile items add the profile fields", () => {
    const meta = {
      persona: { relation: "likes", entity: "Jazz" },
      profile: { age: 34, gender: "F", personality: "warm", occupation: "nurse", income_range: "$1" },
    };
    const persona = abJudgeMessages({ type: "persona", metadata: meta, question: "q", answerA: "a", answerB: "b" })[0].content;
    expect(persona).toContain("the user likes Jazz");
    expect(persona).not.toContain("nurse");
    const profile = abJudgeMessages({ type: "profile", metadata: meta, question: "q", answerA: "a", answerB: "b" })[0].content;
    expect(profile).toContain("Occupation: nurse");
  });
});

describe("dialogue templates", () => {
  it("generated templates follow the published scheme with 5–7 turns, reproducibly", () => {
    for (let seed = 0; seed < 50; seed++) {
      const t = generateTemplate(seed);
      expect(t.turns.length).toBeGreaterThanOrEqual(5);
      expect(t.turns.length).toBeLessThanOrEqual(7);
      expect(t.turns[0]).toEqual({ user: "topic_inquiry", assistant: "requirement_prediction" });
      expect(t.turns.at(-1)).toEqual({ user: "solution_feedback", assistant: "feedback_response" });
      expect(generateTemplate(seed)).toEqual(t);
    }
  });
  it("parses the imported Chinese labels and names a bad one", () => {
    const t = parseTemplate(
      { turn_1: { user: "<话题询问>", assistant: "<需求推测>" }, turn_2: { user: "<需求确认>", assistant: "<方案提议>" } },
      "x",
    );
    expect(t.turns[1]).toEqual({ user: "requirement_confirmation", assistant: "solution_proposal" });
    expect(() => parseTemplate({ turn_1: { user: "<需求推测>", assistant: "<需求推测>" } }, "tpl")).toThrow(/tpl\.turn_1\.user/);
  });
  it("the simulator's view has no preference or solutions in requirement turns", () => {
    const topic = {
      userQuery: "q",
      implicitNeeds: ["n1", "n2"],
      requirement: "r",
      generalPreference: { pos: ["p"], neg: ["n"] },
      solutions: { pos: ["s+"], neg: ["s-"] },
    };
    expect(Object.keys(simulatorView(topic, "requirement_confirmation")).sort()).toEqual(["implicit_needs", "requirement", "user_query"]);
    expect(simulatorView(topic, "solution_feedback")).toHaveProperty("general_preference");
  });
});

describe("HiCUPID schedule judge", () => {
  // Figure A15's structure: the criterion and format, two worked examples on one schedule entry (one
  // answer that spots the clash: YES; one that ignores it: NO), then the item to check.
  it("shows two worked examples, YES then NO, before the item", () => {
    const text = String(
      scheduleJudgeMessages({
        metadata: { schedule: { datetime: "9 AM on June 2, 2025", event: "Team offsite" } },
        question: "Add a call with Sam at 9 AM on June 2, 2025.",
        answer: "Added.",
      } as never)[0].content,
    );
    const e1 = text.indexOf("Example 1:");
    const e2 = text.indexOf("Example 2:");
    const item = text.indexOf("- Event: Team offsite");
    expect(e1).toBeGreaterThan(0);
    expect(e2).toBeGreaterThan(e1);
    expect(item).toBeGreaterThan(e2);
    expect(parseYesNo(text.slice(e1, e2))).toBe("YES");
    expect(parseYesNo(text.slice(e2, text.indexOf("Now the one to check.")))).toBe("NO");
    expect(text.trim().endsWith("Answer: Added.")).toBe(true);
  });
});
