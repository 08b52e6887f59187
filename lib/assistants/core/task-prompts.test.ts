import { describe, expect, it } from "vitest";
import { taskPrompt } from "./task-prompts";

const candidates = Array.from({ length: 8 }, (_, i) => ({ id: String(i + 1), solution: `方案 ${i + 1}` }));

describe("task prompts", () => {
  it("put the memory and the input in the data set's language and ask for the paper's output keys", () => {
    const zh = taskPrompt({ type: "query", query: "周末做点什么好？" }, "用户喜欢安静。", "zh");
    const text = zh.messages[0].content;
    expect(text).toContain("用户喜欢安静。");
    expect(text).toContain("周末做点什么好？");
    expect(text).toContain('{"requirement"');
    expect(zh.toOutput(zh.schema!.parse({ requirement: "安静的周末安排" }))).toEqual({ type: "query", requirement: "安静的周末安排" });

    const en = taskPrompt({ type: "requirement", requirement: "A quiet weekend." }, "", "en");
    expect(en.messages[0].content).toContain("nothing is known about this user yet");
    expect(en.messages[0].content).toContain('{"solution"');

    const d = taskPrompt(
      { type: "dialogue", turns: [{ user: "Hi", assistant: "Hello" }, { user: "Any ideas?" }], action: "solution_proposal" },
      "",
      "en",
    );
    expect(d.messages[0].content).toContain("user: Hi\nassistant: Hello\nuser: Any ideas?");
    expect(d.messages[0].content).toContain("<Solution Proposal>");
  });

  // Mem-PAL Table 7 "Feedback Response": no other solutions may be offered; after a negative attitude
  // the assistant only expresses apology or regret.
  it("the feedback response acknowledges or apologises and proposes nothing new (zh and en)", () => {
    const turns = [{ user: "Hi", assistant: "Try yoga." }, { user: "I don't like it." }];
    const en = taskPrompt({ type: "dialogue", turns, action: "feedback_response" }, "", "en").messages[0].content;
    const def = en.slice(en.indexOf("<Feedback Response>"));
    expect(def).toMatch(/apologise/);
    expect(def).toMatch(/Propose nothing new/);
    expect(def).not.toMatch(/adjust/i);
    const zh = taskPrompt({ type: "dialogue", turns, action: "feedback_response" }, "", "zh").messages[0].content;
    const zdef = zh.slice(zh.indexOf("<反馈回应>"));
    expect(zdef).toContain("歉意");
    expect(zdef).toContain("不要提出任何新的");
    expect(zdef).not.toContain("调整建议");
  });

  it("selection accepts exactly two distinct candidate ids", () => {
    const p = taskPrompt({ type: "selection", requirement: "需求", candidates }, "", "zh");
    expect(p.messages[0].content).toContain("方案 8");
    const s = p.schema!;
    expect(p.toOutput(s.parse({ analysis: "…", selected_solutions: [3, "5"] }))).toEqual({
      type: "selection",
      analysis: "…",
      selected_solutions: ["3", "5"],
    });
    expect(s.safeParse({ analysis: "", selected_solutions: ["1", "2", "3"] }).success).toBe(false);
    expect(s.safeParse({ analysis: "", selected_solutions: ["1", "9"] }).success).toBe(false);
    expect(s.safeParse({ analysis: "", selected_solutions: ["2", "2"] }).success).toBe(false);
  });

  it("HiCUPID questions are answered in plain text", () => {
    const p = taskPrompt({ type: "question", question: "What should I cook tonight?" }, "likes Thai food", "en");
    expect(p.schema).toBeUndefined();
    expect(p.toOutput("  Try a mild green curry.  ")).toEqual({ type: "question", answer: "Try a mild green curry." });
  });
});
