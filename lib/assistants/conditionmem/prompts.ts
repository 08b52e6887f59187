/**
 * ConditionMem prompts (Yuan et al.): (1) is this user input worth remembering; (2) a conditional
 * record in three steps: the related context, why the user said it (summary), a note for later;
 * (3) self-reflection over retrieved records: enough (keep the relevant memory) or not (keywords
 * to extend the query). Output keys follow the paper's tags: decision; context, summary, note;
 * memory or query. The wording is our own.
 */
import { z } from "zod";
import { sendAs } from "@/lib/llm/json-mode";
import { formatTurns, pick, speaker, type ChatMessage, type Lang, type TurnItem } from "../baselines/history-text";

export const decisionSchema = z.object({ decision: z.enum(["yes", "no"]) });
export const recordSchema = z.object({ context: z.string(), summary: z.string().min(1), note: z.string().min(1) });
/**
 * Exactly one of memory (enough) or query (keywords for a second retrieval). Sent as one object with both
 * keys optional: a reply's root is always an object (json_object mode and strict servers want one).
 */
export const reflectionSchema = sendAs(
  z.union([z.object({ memory: z.string().min(1) }).strict(), z.object({ query: z.array(z.string().min(1)).min(1) }).strict()]),
  {
    type: "object",
    properties: {
      memory: { type: "string", minLength: 1 },
      query: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
    },
    additionalProperties: false,
  },
);
export type Decision = z.infer<typeof decisionSchema>;
export type ConditionalRecord = z.infer<typeof recordSchema>;
export type Reflection = z.infer<typeof reflectionSchema>;

/** Should the assistant remember this user input? Requirements, feedback, knowledge: yes; greetings, simple questions: no. */
export function decisionPrompt(lang: Lang, userInput: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你是一名贴心的助手，要判断用户的一句话是否值得记下来以便日后更好地服务。值得记住（yes）：用户对助手提出的要求或需求；用户对助手之前回答的反馈或评价；用户透露的、助手日后用得上的知识或个人信息。不值得记住（no）：只需要直接回答的简单问题；问候、寒暄等客套话。只输出 JSON：{"decision": "yes"} 或 {"decision": "no"}。',
        'You are a thoughtful assistant deciding whether one thing the user said is worth remembering to serve them better later. Worth remembering (yes): a requirement or request the user puts to the assistant; feedback on or a reaction to the assistant\'s earlier answers; knowledge or personal information the assistant could use later. Not worth remembering (no): a simple question that just needs an answer; greetings and small talk. Reply with JSON only: {"decision": "yes"} or {"decision": "no"}.',
      ),
    },
    { role: "user", content: pick(lang, `用户的话：${userInput}`, `User input: ${userInput}`) },
  ];
}

/**
 * Build one conditional record. `context` is the dialogue up to the utterance (earlier turns of the
 * same session; the current turn's assistant answer is not yet known to the user input).
 */
export function recordPrompt(lang: Lang, context: readonly TurnItem[], userInput: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你要为一句值得记住的用户发言写一条记忆，分三步。第一步 context：从对话上下文中摘出与这句话相关的内容，没有则写 "NaN"。第二步 summary：结合这句话和相关内容，说明用户为什么这样说（处境、原因、背景）；相关内容为 "NaN" 时不要追问。第三步 note：站在助手的角度，为了以后更好地服务用户，把这句话改写成一条备忘，写进其中的新信息或新知识。只输出 JSON：{"context": "...", "summary": "...", "note": "..."}。',
        'Write a memory record for one user input worth remembering, in three steps. Step 1, context: copy the parts of the dialogue context that relate to the input, or "NaN" if none do. Step 2, summary: from the input and that context, explain why the user said it (the situation, reasons, background); if the context is "NaN", do not ask for it. Step 3, note: as the assistant who wants to serve this user better later, rewrite the input as a note for future reference that keeps the new information or knowledge it carries. Reply with JSON only: {"context": "...", "summary": "...", "note": "..."}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `对话上下文：\n${context.length ? formatTurns(lang, context) : "（无）"}\n\n用户的话：${userInput}`,
        `Dialogue context:\n${context.length ? formatTurns(lang, context) : "(none)"}\n\nUser input: ${userInput}`,
      ),
    },
  ];
}

/** Self-reflection: is what was retrieved enough to answer the input? */
export function reflectionPrompt(lang: Lang, candidates: readonly string[], userInput: string): ChatMessage[] {
  const list = candidates.map((c, i) => `${i + 1}. ${c}`).join("\n");
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你是一名乐于助人的助手，即将回应用户的输入。先判断候选记忆中的信息是否足以做出回应。足够时输出 {"memory": "从候选记忆中摘出的与输入相关的内容"}；不够时输出 {"query": ["关键词", ...]}，给出若干能帮助找回缺失信息的关键词或短语。只输出 JSON。',
        'You are a helpful assistant about to respond to the user input. First decide whether the candidate memory holds enough information for the response. If it does, reply {"memory": "the parts of the candidate memory that relate to the input"}; if not, reply {"query": ["keyword", ...]} with keywords or phrases that would help retrieve the missing information. Reply with JSON only.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `候选记忆：\n${list || "（无）"}\n\n${speaker(lang, "user")}的输入：${userInput}`,
        `Candidate memory:\n${list || "(none)"}\n\n${speaker(lang, "user")} input: ${userInput}`,
      ),
    },
  ];
}
