import { describe, expect, it } from "vitest";
import { parseAbVerdict, parseYesNo, abJudgeMessages, JudgeParseError, scheduleJudgeMessages, balancedSlots } from "./hicupid";
import { JUDGES } from "./registry";
import { callReplicate, type JudgeModel } from "./judge";
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
    // Solution turns, as Mem-PAL's public code: the requirement, the general preference and the candidate solutions only.
    expect(Object.keys(simulatorView(topic, "solution_feedback")).sort()).toEqual([
      "candidate_solutions",
      "general_preference",
      "requirement",
    ]);
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

describe("the judges' registry and their two rules", () => {
  // An in-memory judge port that records what each call asked for (the judges' own logic is under test).
  const recording = (reply: (messages: string) => unknown) => {
    const calls: Array<{ purpose: string; replicate: number; text: string }> = [];
    const model: JudgeModel = {
      async json(req) {
        const text = req.messages.map((m) => m.content).join("\n");
        calls.push({ purpose: req.purpose, replicate: req.replicate, text });
        return { value: req.schema.parse(reply(text)), raw: "" };
      },
      async text(req) {
        const text = req.messages.map((m) => m.content).join("\n");
        calls.push({ purpose: req.purpose, replicate: req.replicate, text });
        return { value: req.parse(String(reply(text))), raw: String(reply(text)) };
      },
    };
    return { model, calls };
  };

  it("lists every judge once, under its own name", () => {
    for (const [key, j] of Object.entries(JUDGES)) expect(j.name).toBe(key);
    expect(Object.keys(JUDGES).sort()).toEqual(["dialogue-pair", "gscore", "hicupid-ab", "hicupid-schedule", "longmemeval", "rating"]);
  });

  it("FairEval: six calls at replicate r·6+k, three in each order, scores mapped back to their side", async () => {
    const { model, calls } = recording((t) => {
      const aFirst = t.split("# Dialogue with assistant-2")[0].includes("side A line");
      return {
        analysis: { "assistant-1": "", "assistant-2": "", overall: "" },
        scores: { "assistant-1": aFirst ? 8 : 5, "assistant-2": aFirst ? 5 : 8 },
      };
    });
    const info = { background: "", personality: "", situation: "", userQuery: "", implicitNeeds: [], requirement: "" };
    const v = await JUDGES["dialogue-pair"].verdict(
      { model, replicate: 2, purpose: "x.judge" },
      {
        dimension: "preference",
        info: { ...info, generalPreference: { pos: [], neg: [] }, solutions: { pos: [], neg: [] } },
        a: [{ role: "assistant", content: "side A line" }],
        b: [{ role: "assistant", content: "side B line" }],
        lang: "en",
        tieMargin: 0,
      },
    );
    expect(calls.map((c) => c.replicate).sort((x, y) => x - y)).toEqual([12, 13, 14, 15, 16, 17]);
    expect(new Set(calls.map((c) => c.purpose))).toEqual(new Set(["x.judge.preference"]));
    expect(v.judgments.map((j) => j.order)).toEqual(["AB", "AB", "AB", "BA", "BA", "BA"]);
    expect(v.judgments.every((j) => j.scoreA === 8 && j.scoreB === 5)).toBe(true);
    expect(v).toMatchObject({ outcome: "Win", meanA: 8, meanB: 5, complete: true });
  });

  it("a one-call judge uses the run's replicate; the A/B judge shows the answer in its slot and answers for the model", async () => {
    const { model, calls } = recording((t) => `1. Personalization: x\n\nBetter Response: ${t.includes("Answer (A): mine") ? "A" : "B"}`);
    const input = { type: "persona" as const, metadata: {}, question: "q", answer: "mine", reference: "ref" };
    const inB = await JUDGES["hicupid-ab"].verdict({ model, replicate: 3, purpose: "h.judge" }, { ...input, modelSlot: "B" });
    expect(inB).toMatchObject({ verdict: "B", modelSlot: "B", outcome: "win" });
    expect(calls[0]).toMatchObject({ replicate: 3, purpose: "h.judge.persona" });
    expect(calls[0].text).toContain("Answer (B): mine");
  });

  it("answer slots: exactly half of each type in A, the same for the same seed whatever the listing order", () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ itemKey: `k${i}`, type: i < 6 ? "persona" : "profile" }));
    const s = balancedSlots(items, 5, 0, 0);
    expect([...s.entries()].filter(([k, v]) => v === "A" && Number(k.slice(1)) < 6)).toHaveLength(3);
    expect([...s.entries()].filter(([k, v]) => v === "A" && Number(k.slice(1)) >= 6)).toHaveLength(2);
    expect(balancedSlots([...items].reverse(), 5, 0, 0)).toEqual(s);
    expect(callReplicate(1, 6, 2)).toBe(8);
  });
});
