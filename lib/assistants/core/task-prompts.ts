/**
 * The task prompts an assistant answers with (Mem-PAL Appendix E "Prompts of PAL-Bench Tasks", and
 * a plain answer prompt for HiCUPID). The wording is the project's own; each prompt keeps the
 * papers' inputs (<memory>, the query / requirement / candidates / dialogue context, the reply
 * type) and output JSON keys. A method supplies only the memory text; every method answers with the
 * same task prompt, so methods differ in memory alone.
 */
import { z } from "zod";
import { ACTION_LABELS } from "@/lib/datasets/palset/actions";
import type { ChatMessage } from "@/lib/llm/client";
import type { Language, TaskInput, TaskOutput } from "./types";
import type { AssistantActionCode } from "./sessions";

export type TaskPrompt<T> = { messages: ChatMessage[]; schema?: z.ZodType<T>; toOutput: (value: T) => TaskOutput };

const fence = (s: string) => `"""\n${s}\n"""`;

/**
 * What each assistant reply type asks for: the constraints of Mem-PAL Table 7 and of the public evaluation
 * code's definitions, in the project's own words (one need inferred per reply, a new solution each time,
 * persuading in a discussion, no new solution in a feedback response).
 */
const ACTION_DEFS: Record<AssistantActionCode, Record<Language, string>> = {
  requirement_prediction: {
    en: "Infer one implicit need behind the user's message from what you know of their recent experiences or background, and ask them to confirm it. One need per reply; do not discuss solutions yet.",
    zh: "结合对用户近期经历或背景的了解，推断用户这句话背后的一个隐含需求，并请用户确认。每次只推测一个方面，先不要谈方案。",
  },
  solution_proposal: {
    en: "Propose one concrete solution that fits the user's need and preferences; if solutions were already discussed, propose a new one. Give the solution directly, without restating what you understood of the user.",
    zh: "针对用户的需求，提出一个符合其偏好的具体方案；之前讨论过方案的，提出一个新的方案。直接给出方案，不必复述你对用户的理解。",
  },
  solution_discussion: {
    en: "Answer the user's points about the current solution, discuss it further in the light of their background or experiences, and try to persuade them to accept it.",
    zh: "回应用户对当前方案的意见或疑问，结合其背景或经历进一步讨论，并尝试说服用户接受这个方案。",
  },
  // Mem-PAL Table 7: the assistant only responds to the user's attitude; it offers no other solution,
  // and after a rejection it only apologises or expresses regret (the simulator's definition says the same).
  feedback_response: {
    en: "Respond briefly to the user's feedback on the solution: acknowledge it, or apologise if they rejected it. Propose nothing new: no other or changed solution.",
    zh: "简短回应用户对方案的反馈：表示认可，用户不认可时只表达歉意或遗憾。不要提出任何新的或修改后的方案。",
  },
};

const T = {
  en: {
    memoryHead: "# What you know about the user",
    none: "(nothing is known about this user yet)",
    jsonOnly: "Output only the JSON object, with no other text.",
  },
  zh: {
    memoryHead: "# 用户个性化信息",
    none: "（暂无该用户的任何信息）",
    jsonOnly: "只输出 JSON 对象，不要输出其他任何内容。",
  },
};

const RequirementOut = z.object({ requirement: z.string().min(1) });
const SolutionOut = z.object({ solution: z.string().min(1) });
const SelectionOut = (ids: string[]) =>
  z.object({
    analysis: z.string(),
    selected_solutions: z
      .array(z.union([z.string(), z.number()]).transform(String))
      .length(2)
      .refine((xs) => xs.every((x) => ids.includes(x)) && xs[0] !== xs[1], {
        message: `must be two different ids out of ${ids.join(", ")}`,
      }),
  });
const ContentOut = z.object({ content: z.string().min(1) });

function dialogueContext(turns: Array<{ user: string; assistant?: string }>, lang: Language): string {
  const [u, a] = lang === "zh" ? ["用户", "助手"] : ["user", "assistant"];
  return turns.flatMap((t) => [`${u}: ${t.user}`, ...(t.assistant !== undefined ? [`${a}: ${t.assistant}`] : [])]).join("\n");
}

/** The prompt for one task input, given the memory text a method retrieved for it. */
export function taskPrompt(input: TaskInput, memoryText: string, lang: Language): TaskPrompt<unknown> {
  const t = T[lang];
  const memory = `${t.memoryHead}\n${memoryText.trim() || t.none}`;
  const user = (content: string): ChatMessage[] => [{ role: "user", content }];
  const zh = lang === "zh";
  switch (input.type) {
    case "query":
      return {
        messages: user(
          zh
            ? `你是一个懂得结合用户历史来理解需求的个性化助手，正在与用户交流。下面给出用户的个性化信息和用户当前的提问。请借助这些信息，推断用户此刻真正的需求，并用一句话描述出来。\n\n${memory}\n\n# 用户当前的提问\n${fence(input.query)}\n\n# 输出格式\n{"requirement": "……"}\n${t.jsonOnly}`
            : `You are a personalized assistant who understands a user's needs from what you know of their history. You are talking with the user. Below is what you know about them and their current question. Work out what the user really needs right now and state it in one sentence.\n\n${memory}\n\n# The user's current question\n${fence(input.query)}\n\n# Output format\n{"requirement": "..."}\n${t.jsonOnly}`,
        ),
        schema: RequirementOut,
        toOutput: (v) => ({ type: "query", requirement: (v as z.infer<typeof RequirementOut>).requirement }),
      };
    case "requirement":
      return {
        messages: user(
          zh
            ? `你是一个能根据用户偏好给出建议的个性化助手，正在与用户交流。下面给出用户的个性化信息和用户当前的需求。请结合这些信息理解用户的偏好，针对当前需求提出一条符合其偏好的方案，用一句话表述。\n\n${memory}\n\n# 用户当前的需求\n${fence(input.requirement)}\n\n# 输出格式\n{"solution": "……"}\n${t.jsonOnly}`
            : `You are a personalized assistant who suggests solutions that suit a user's preferences. You are talking with the user. Below is what you know about them and their current requirement. Use it to understand their preferences and propose one solution, in one sentence, that fits them.\n\n${memory}\n\n# The user's current requirement\n${fence(input.requirement)}\n\n# Output format\n{"solution": "..."}\n${t.jsonOnly}`,
        ),
        schema: SolutionOut,
        toOutput: (v) => ({ type: "requirement", solution: (v as z.infer<typeof SolutionOut>).solution }),
      };
    case "selection": {
      const ids = input.candidates.map((c) => c.id);
      const list = JSON.stringify(
        input.candidates.map((c) => ({ id: c.id, solution: c.solution })),
        null,
        1,
      );
      const schema = SelectionOut(ids);
      return {
        messages: user(
          zh
            ? `你是一个能根据用户偏好给出建议的个性化助手，正在与用户交流。下面给出用户的个性化信息、用户当前的需求，以及针对该需求的 ${ids.length} 条候选方案。请结合用户偏好分析这些方案，并从中选出最符合用户偏好的 2 条。\n\n${memory}\n\n# 用户当前的需求\n${fence(input.requirement)}\n\n# 候选方案（id 与内容）\n${fence(list)}\n\n# 输出格式\n{"analysis": "……（围绕用户偏好对各候选方案的整体分析）", "selected_solutions": ["id", "id"]}\n"selected_solutions" 中必须恰好包含 2 个候选方案的 id。${t.jsonOnly}`
            : `You are a personalized assistant who suggests solutions that suit a user's preferences. You are talking with the user. Below is what you know about them, their current requirement and ${ids.length} candidate solutions for it. Analyse the candidates with the user's preferences in mind and pick the 2 that suit the user best.\n\n${memory}\n\n# The user's current requirement\n${fence(input.requirement)}\n\n# Candidate solutions (id and content)\n${fence(list)}\n\n# Output format\n{"analysis": "... (an overall analysis of the candidates in light of the user's preferences)", "selected_solutions": ["id", "id"]}\n"selected_solutions" must hold exactly 2 candidate ids. ${t.jsonOnly}`,
        ),
        schema,
        toOutput: (v) => {
          const x = v as z.infer<typeof schema>;
          return { type: "selection", analysis: x.analysis, selected_solutions: x.selected_solutions };
        },
      };
    }
    case "dialogue": {
      const label = ACTION_LABELS[input.action][lang];
      const turnNo = input.turns.length;
      return {
        messages: user(
          zh
            ? `你是一个个性化对话助手，按指定的回复类型生成符合用户需求和偏好的回复。回复类型为以下之一：<需求推测>、<方案提议>、<方案讨论>、<反馈回应>。下面给出用户的个性化信息和你与用户目前的对话。\n\n${memory}\n\n# 当前对话\n${fence(dialogueContext(input.turns, lang))}\n\n# 当前轮次\n第 ${turnNo} 轮\n\n# 本次回复类型：<${label}>\n${ACTION_DEFS[input.action].zh}\n回复不必长，1 到 3 句即可。\n\n# 输出格式\n{"content": "……"}\n${t.jsonOnly}`
            : `You are a personalized dialogue assistant who writes replies of a given type that meet the user's needs and preferences. The reply type is one of <Requirement Prediction>, <Solution Proposal>, <Solution Discussion>, <Feedback Response>. Below is what you know about the user and the dialogue so far.\n\n${memory}\n\n# Dialogue so far\n${fence(dialogueContext(input.turns, lang))}\n\n# Current turn\nturn ${turnNo}\n\n# Reply type for this turn: <${label}>\n${ACTION_DEFS[input.action].en}\nKeep the reply short: one to three sentences.\n\n# Output format\n{"content": "..."}\n${t.jsonOnly}`,
        ),
        schema: ContentOut,
        toOutput: (v) => ({ type: "dialogue", content: (v as z.infer<typeof ContentOut>).content }),
      };
    }
    case "question":
      if (input.style === "memory" && input.benchmark === "longmemeval")
        return {
          // LongMemEval's run_generation.py (283612f): one user message, the history first, then the current
          // date and the question; its recommended reading ("con") asks to extract the relevant information
          // first and reason over it, with 800 output tokens. Our wording; the whole reply goes to the judge.
          messages: user(
            `You are a chat assistant with a memory of earlier conversations with a user. Answer the question below from what that memory holds. Work in two steps: first pick out everything in the memory that bears on the question, then reason over it to the answer; if the memory does not hold the answer, say so.\n\n${memory}\n\n# Current date\n${input.askedAt ?? "(not given)"}\n\n# Question\n${fence(input.question)}`,
          ),
          toOutput: (v) => ({ type: "question", answer: String(v).trim() }),
        };
      if (input.style === "memory")
        return {
          // LoCoMo and LongMemEval ask about what was said in earlier conversations: a short answer from
          // memory (LoCoMo's public code asks for a short phrase in the conversations' own words).
          messages: user(
            `You are a chat assistant with a memory of earlier conversations. Answer the question below from what that memory holds. Reply with a short phrase, in the conversations' own words where you can; if the memory does not hold the answer, say so.${input.askedAt ? ` The question is asked on ${input.askedAt}.` : ""}\n\n${memory}\n\n# Question\n${fence(input.question)}`,
          ),
          toOutput: (v) => ({ type: "question", answer: String(v).trim() }),
        };
      return {
        messages: user(
          zh
            ? `你是用户的个性化助手。请结合你对用户的了解回答用户的问题，回答要贴合用户本人。\n\n${memory}\n\n# 用户的问题\n${fence(input.question)}`
            : `You are the user's personal assistant. Answer the user's question using what you know about them, so that the answer fits this user in particular.\n\n${memory}\n\n# The user's question\n${fence(input.question)}`,
        ),
        toOutput: (v) => ({ type: "question", answer: String(v).trim() }),
      };
  }
}
