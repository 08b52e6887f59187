/**
 * TEST DOUBLE replies for the experiments tests: the fake OpenAI server answers each prompt kind of the
 * project's own prompts (lib/assistants/core/task-prompts.ts for the assistant, the task's simulator and
 * judge prompts) with a scripted reply. Never used by the app.
 */
import type { ChatRequest } from "./fake-openai";

export const firstMessage = (r: ChatRequest) => String(r.messages[0]?.content ?? "");

/**
 * Scripted replies by prompt kind (the project's own prompts: lib/assistants/core/task-prompts.ts for the
 * assistant, the task's simulator and judge prompts). The two methods differ in memory: vanilla knows
 * nothing, vanilla-log sees the session's logs; the dialogue replies say which one answered.
 */
export function experimentReplies() {
  return (r: ChatRequest) => {
    const t = firstMessage(r);
    if (t.includes('{"requirement": "..."}')) return JSON.stringify({ requirement: "The user wants a plan for the weekend." });
    if (t.includes('"score": <score>}')) return JSON.stringify({ analysis: "one need matched, one partly", score: 1.5 });
    if (t.includes('{"solution": "..."}')) return JSON.stringify({ solution: "Take a short walk in the park." });
    if (t.includes('"selected_solutions": ["id", "id"]')) {
      // First answer repeats an id (invalid); the client asks again saying why: then ids 1 and 2.
      if (r.messages.length > 1) return JSON.stringify({ analysis: "fixed", selected_solutions: ["1", "2"] });
      return JSON.stringify({ analysis: "a", selected_solutions: ["3", "3"] });
    }
    if (t.includes("You play a user")) return JSON.stringify({ content: "user line" });
    if (t.includes("Reply type for this turn"))
      return JSON.stringify({ content: t.includes("nothing is known about this user") ? "reply A" : "reply B" });
    if (t.includes('"assistant-1": <score>')) {
      // The dialogue with "reply A" gets 8, the other 6, whatever the order.
      const firstDialogue = t.split("# Dialogue with assistant-2")[0];
      const aFirst = firstDialogue.includes("reply A");
      return JSON.stringify({
        analysis: { "assistant-1": "x", "assistant-2": "y", overall: "z" },
        scores: { "assistant-1": aFirst ? 8 : 6, "assistant-2": aFirst ? 6 : 8 },
      });
    }
    return "unexpected prompt";
  };
}

/**
 * Scripted replies for the LLM judges run on annotation campaigns (lib/annotation/llm-judge), over the
 * fixtures in fixtures/annotation: the pairwise judge prefers the dialogue that asks "Given that you ..."
 * (8 vs 5, whatever the order); the HiCUPID judge prefers the answer shown as B when it is the reference
 * of the demo file's first items, else A; the rating judge gives 2. Anything else: the experiments' replies.
 */
export function campaignJudgeReplies() {
  const fallback = experimentReplies();
  return (r: ChatRequest) => {
    const t = firstMessage(r);
    if (t.includes('"assistant-1": <score>') && t.includes("Given that you")) {
      const first = t.split("# Dialogue with assistant-2")[0].split("# Dialogue with assistant-1")[1] ?? "";
      const s = first.includes("Given that you") ? [8, 5] : [5, 8];
      return JSON.stringify({
        analysis: { "assistant-1": "x", "assistant-2": "y", overall: "z" },
        scores: { "assistant-1": s[0], "assistant-2": s[1] },
      });
    }
    if (t.includes("Better Response: <A/B/Tie>"))
      return `1. Personalization: fine\n2. Logical Validity: fine\n\nBetter Response: ${t.includes("Answer (A): Go hiking") ? "A" : "B"}`;
    if (t.includes('"score": 1, 2 or 3}')) return JSON.stringify({ analysis: "basically matches", score: 2 });
    return fallback(r);
  };
}
