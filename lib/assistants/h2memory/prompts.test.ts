/** Each H2Memory prompt carries its inputs, its step tag, and the paper's output keys, in both languages. */
import { describe, expect, it } from "vitest";
import * as P from "./prompts";

const logs = [{ id: "log_0", timestamp: "2024-01-01 09:00", content: "加班到深夜" }];
const cases = (lang: P.Lang): Array<[P.Prompt, string[], string[]]> => [
  [P.logGraphPrompt(lang, logs, { first: "log_0", last: "log_0" }), ["加班到深夜", "log_0 ~ log_0"], ["caused_by", "follows"]],
  [P.situationPrompt(lang, logs, []), ["加班到深夜"], ["situation", "situation_aspects"]],
  [
    P.topicOutlinePrompt(lang, [{ key: "turn_1", user: "U1", assistant: "A1" }]),
    ["turn_1", "U1", "A1"],
    ["turn_span", "requirement", "solution_list", "user_feedback", "feedback_type", "preference"],
  ],
  [P.requirementRefinementPrompt(lang, "BG", "SIT", "REQ"), ["BG", "SIT", "REQ"], ["requirement"]],
  [
    P.backgroundPrompt(
      lang,
      { time_span: "T0", background: { work: "W", health: "", family: "", leisure: "" } },
      { time_span: "T1", situation_list: ["S1"] },
    ),
    ["T0", "T1", "S1", '"work": "W"'],
    ["updating_aspects", "updating_content"],
  ],
  [P.requirementAbstractionPrompt(lang, ["R1", "R2"]), ["R1", "R2"], ["general_requirement"]],
  [P.preferenceAbstractionPrompt(lang, "GR", ["P1"]), ["GR", "P1"], ["principle"]],
  [P.requirementUpdatePrompt(lang, "GR", ["R3"]), ["GR", "R3"], ["adjust", "general_requirement"]],
  [P.preferenceUpdatePrompt(lang, "GR", "PR", ["P2"]), ["GR", "PR", "P2"], ["adjust", "principle"]],
  [P.queryGenerationPrompt(lang, [{ role: "user", content: "Q1" }]), ["Q1"], ["requirement"]],
];

describe("H2Memory prompts", () => {
  for (const lang of ["zh", "en"] as const) {
    it(`${lang}: inputs, output keys and step tag`, () => {
      for (const [p, inputs, keys] of cases(lang)) {
        const all = p.messages.map((m) => m.content).join("\n");
        for (const s of inputs) expect(all, `${p.step} input ${s}`).toContain(s);
        for (const k of keys) expect(all, `${p.step} key ${k}`).toContain(`"${k}"`);
        expect(P.stepOf(p.messages)).toBe(p.step);
        // The instructions are in the prompt language.
        expect(/[\u4e00-\u9fff]/.test(p.messages[0].content)).toBe(lang === "zh");
      }
    });
  }
});
