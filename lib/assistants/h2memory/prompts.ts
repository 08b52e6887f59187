/**
 * Prompt builders for H2Memory's memory construction (Mem-PAL, Appendix E), in Chinese and English.
 * Pure functions from the step's inputs to chat messages. The wording is ours; the inputs and the
 * output JSON keys are the paper's. Every system message ends with a step tag `(h2memory/<step>)` so
 * a ledger row, a test or the fake server can tell the steps apart without parsing prose.
 */
import { TOPIC_OUTLINES_KEY, type Aspect, type TopicOutline } from "./schemas";

import type { ChatMessage, Lang } from "@/lib/llm/types";
export type { ChatMessage, Lang } from "@/lib/llm/types";
export type H2Step =
  | "log-graph"
  | "situation"
  | "topic-outline"
  | "requirement-refinement"
  | "background"
  | "requirement-abstraction"
  | "preference-abstraction"
  | "requirement-update"
  | "preference-update"
  | "query-generation";
export type Prompt = { step: H2Step; messages: ChatMessage[] };

export const stepTag = (step: H2Step) => `(h2memory/${step})`;
/** The step a request was built for, read from its tag; undefined for other prompts. */
export function stepOf(messages: Array<{ content: unknown }>): H2Step | undefined {
  for (const m of messages) {
    const hit = typeof m.content === "string" ? /\(h2memory\/([a-z-]+)\)/.exec(m.content) : null;
    if (hit) return hit[1] as H2Step;
  }
  return undefined;
}

const block = (s: string) => `"""\n${s}\n"""`;
const json = (v: unknown) => JSON.stringify(v, null, 2);
const lines = (xs: string[]) => xs.join("\n");

function prompt(step: H2Step, system: string, user: string): Prompt {
  return {
    step,
    messages: [
      { role: "system", content: `${system} ${stepTag(step)}` },
      { role: "user", content: user },
    ],
  };
}

const SYSTEM: Record<Lang, string> = {
  zh: "你负责为一个个性化日常助手整理用户的长期记忆，只输出要求的 JSON。",
  en: "You maintain the long-term memory of a personal daily assistant. Answer with the requested JSON only.",
};

const RELATIONS: Record<Lang, string> = {
  zh: lines([
    "设当前日志记录的是事件 B，某条更早的日志记录的是事件 A：",
    '1. "caused_by"：A 直接导致了 B；没有 A 就不会有 B。',
    '2. "follows"：A 与 B 属于同一件事，B 在时间上接续 A，但 B 的发生并不完全取决于 A。',
  ]),
  en: lines([
    "Say the current log records event B and an earlier log records event A:",
    '1. "caused_by": A directly brought about B; without A, B would not have happened.',
    '2. "follows": A and B concern the same matter and B comes after A in time, but B does not wholly depend on A.',
  ]),
};

export type PromptLog = { id: string; timestamp: string; content: string };
const logLine = (l: PromptLog) => `${l.id} [${l.timestamp}] ${l.content}`;

/** Step 1-1: relations of the logs in [first, last] to earlier logs (the window plus its context). */
export function logGraphPrompt(lang: Lang, logs: PromptLog[], span: { first: string; last: string }): Prompt {
  const spanText = `${span.first} ~ ${span.last}`;
  const example = `{\n  "${span.first}": {"caused_by": [], "follows": []},\n  ...\n}`;
  const user =
    lang === "zh"
      ? lines([
          "下面是用户的若干条日志，每条有编号、时间和内容。请找出指定范围内每条日志与它之前日志的关系。",
          RELATIONS.zh,
          "# 日志",
          block(logs.map(logLine).join("\n")),
          "# 要求",
          `1. 逐条处理范围 ${spanText} 内的每一条日志，为它列出 "caused_by" 与 "follows" 两类关系各自对应的更早日志编号；没有就给空列表。相关日志只能在它之前，可以早于该范围。`,
          "2. 只列直接关系，不要列经由其他日志间接相连的关系。",
          '3. 先判断 "caused_by"；两条日志已是 "caused_by" 关系时，不再把它们列为 "follows"。',
          "4. 按下面的格式输出 JSON，不要输出其他内容，也不要在 JSON 中加注释。",
          block(example),
        ])
      : lines([
          "Below are some of the user's logs, each with an id, a time and its content. For every log in the given range, find how it relates to earlier logs.",
          RELATIONS.en,
          "# Logs",
          block(logs.map(logLine).join("\n")),
          "# What to do",
          `1. Go through every log in the range ${spanText}. For each, list the ids of earlier logs under "caused_by" and under "follows"; use an empty list when there are none. Only earlier logs can be related; they may lie before the range.`,
          "2. List direct relations only, not ones that hold through other logs in between.",
          '3. Decide "caused_by" first; two logs already linked by "caused_by" are not also listed under "follows".',
          "4. Answer in the JSON format below and nothing else; no comments inside the JSON.",
          block(example),
        ]);
  return prompt("log-graph", SYSTEM[lang], user);
}

export type SubgraphEdge = { from: string; to: string; type: "caused_by" | "follows" };

/** Step 1-2: a situation (and its aspects) from one connected component of the log graph. */
export function situationPrompt(lang: Lang, logs: PromptLog[], edges: SubgraphEdge[]): Prompt {
  const rel = (e: SubgraphEdge) => `${e.to} ${e.type} ${e.from}`;
  const subgraph = lines([...logs.map(logLine), ...(edges.length ? [lang === "zh" ? "关系：" : "Relations:", ...edges.map(rel)] : [])]);
  const example = '{"situation": "...", "situation_aspects": ["..."]}';
  const user =
    lang === "zh"
      ? lines([
          "下面是用户的一组相互关联的日志（含时间、内容和日志之间的关系）。请顺着这些关系把日志串起来，概括用户近期的经历或事件，并判断它主要属于哪些方面。",
          "# 关系定义",
          RELATIONS.zh,
          "# 日志",
          block(subgraph),
          "# 要求",
          '1. "situation"：一段简洁的描述，直接写出日志所反映的经历或事件及它们之间的联系，不必照搬日志原文，除非必要不写具体时间。',
          '2. "situation_aspects"：从 "work"、"health"、"family"、"leisure" 中选出一个或多个主要方面，列表不能为空。',
          "3. 只输出下面格式的 JSON，不要加任何解释或注释。",
          block(example),
        ])
      : lines([
          "Below is a group of the user's related logs (time, content and the relations between them). Follow the relations to connect the logs, describe what the user has recently been going through, and say which aspects of life it mainly concerns.",
          "# Relations",
          RELATIONS.en,
          "# Logs",
          block(subgraph),
          "# What to do",
          '1. "situation": one concise paragraph stating the experiences or events the logs point to and how they connect; do not quote the logs, and leave out exact times unless they matter.',
          '2. "situation_aspects": one or more of "work", "health", "family", "leisure"; never empty.',
          "3. Answer with the JSON below only; no explanations or comments.",
          block(example),
        ]);
  return prompt("situation", SYSTEM[lang], user);
}

export type PromptTurn = { key: string; user: string; assistant: string };
const dialogueText = (turns: PromptTurn[]) => turns.map((t) => `${t.key}\nuser: ${t.user}\nassistant: ${t.assistant}`).join("\n");

/** Step 2-1: topic outlines of one dialogue. */
export function topicOutlinePrompt(lang: Lang, turns: PromptTurn[]): Prompt {
  // The paper's list, under one key: every reply is a JSON object (an object-only JSON mode can serve it).
  const example = json({
    [TOPIC_OUTLINES_KEY]: [
      {
        turn_span: ["turn_x", "turn_y"],
        requirement: "...",
        solution_list: [{ solution: "...", user_feedback: "...", feedback_type: "pos | neg | others" }],
        preference: "...",
      },
    ],
  });
  const user =
    lang === "zh"
      ? lines([
          "用户（user）在和日常助手（assistant）对话，可能就与自身背景或经历相关的事情寻求建议；助手弄清需求后给出方案，用户再对方案表态。请为对话中的每个话题整理一份提纲。",
          "# 对话",
          block(dialogueText(turns)),
          "# 要求",
          '1. 一段对话可能有多个话题。"turn_span" 是话题起止的两个轮次编号（格式 "turn_x"），各话题的轮次范围前后相接。',
          '2. "requirement"：用一句话写出用户在该话题下想要解决的具体需求。',
          '3. "solution_list"：列出该话题下讨论过的每个方案：方案内容 "solution"（一句话概括）、用户态度 "user_feedback"（从助手角度简述）、反馈类型 "feedback_type"（"pos"、"neg"，态度确实不明时才用 "others"）。反馈类型以讨论结束时用户的最终态度为准。',
          '4. "preference"：根据用户对各方案的反馈，用一句话概括用户在这个需求上的偏好；若用户否定过某类方案，要写出他不喜欢的方案类型。',
          `5. 只输出下面格式的 JSON 对象（"${TOPIC_OUTLINES_KEY}" 下是每个话题一项的列表），不要加任何解释或注释。`,
          block(example),
        ])
      : lines([
          "A user (user) is talking with a daily assistant (assistant), asking for advice on matters from their own life; the assistant works out the need, proposes solutions, and the user reacts to them. Write an outline for every topic of the dialogue.",
          "# Dialogue",
          block(dialogueText(turns)),
          "# What to do",
          '1. A dialogue may hold several topics. "turn_span" gives the first and last turn ids of a topic (format "turn_x"); the spans of consecutive topics adjoin.',
          '2. "requirement": one sentence stating the concrete need the user wants help with in this topic.',
          '3. "solution_list": every solution discussed in the topic, with "solution" (one-sentence summary), "user_feedback" (the user\'s attitude, briefly, as the assistant saw it) and "feedback_type" ("pos", "neg", or "others" only when the attitude is truly unclear), judged by the user\'s final attitude.',
          '4. "preference": one sentence on what the user prefers for this need, judged from the feedback; where the user rejected something, say what kind of solution they dislike.',
          `5. Answer with a JSON object in the format below only (the list under "${TOPIC_OUTLINES_KEY}", one entry per topic); no explanations or comments.`,
          block(example),
        ]);
  return prompt("topic-outline", SYSTEM[lang], user);
}

/** Step 2-2: rewrite a requirement with the user's background and the session's situations. */
export function requirementRefinementPrompt(lang: Lang, background: string, situation: string, requirement: string): Prompt {
  const example = '{"requirement": "..."}';
  const user =
    lang === "zh"
      ? lines([
          "用户和日常助手对话时提出了一个需求，我们已把它概括出来。请结合下面给出的用户整体背景与近期情况，把这条需求改写得更具体。",
          "# 用户整体背景",
          block(background),
          "# 用户近期情况",
          block(situation),
          "# 用户需求",
          block(requirement),
          "# 要求",
          "1. 背景与近期情况中可能有引出这条需求的原因或事件，也可能有无关信息；只用相关的部分来补充需求。",
          "2. 改写结果仍是一句话，只围绕这一个核心需求，不要引入无关的需求或背景。",
          "3. 只输出下面格式的 JSON。",
          block(example),
        ])
      : lines([
          "In a dialogue with a daily assistant the user stated a need, which we have already summarised. Rewrite it as a more detailed description using the user's overall background and recent situation given below.",
          "# User's overall background",
          block(background),
          "# User's recent situation",
          block(situation),
          "# User requirement",
          block(requirement),
          "# What to do",
          "1. The background and situation may contain the causes or events behind this need, and also unrelated things; use only what bears on the need.",
          "2. The rewrite stays one sentence about this one core need, without unrelated needs or background.",
          "3. Answer with the JSON below only.",
          block(example),
        ]);
  return prompt("requirement-refinement", SYSTEM[lang], user);
}

export type BackgroundState = { time_span: string; background: Record<Aspect, string> };
export type SituationBatch = { time_span: string; situation_list: string[] };

/** Step 3: recursive update of the four-aspect background from the session's situations. */
export function backgroundPrompt(lang: Lang, last: BackgroundState, current: SituationBatch): Prompt {
  const example = '{\n  "updating_aspects": ["..."],\n  "updating_content": {"...": "..."}\n}';
  const user =
    lang === "zh"
      ? lines([
          "请根据用户近期的具体情况，更新对用户背景的概括。",
          '# 以往的用户背景概括（"background"：work、health、family、leisure 四个方面各一句话，为空表示尚无该方面信息；"time_span"：覆盖的时间段）',
          block(json(last)),
          '# 尚未并入背景的近期情况（"time_span"：时间段；"situation_list"：情况列表）',
          block(json(current)),
          "# 要求",
          "1. 背景写的是用户在该方面的整体特点（职业、健康状况、家庭成员、爱好等），不写过于具体的事件。",
          "2. 近期情况不涉及某方面、或已被原概括覆盖、或过于具体时，该方面保持不变。",
          "3. 每个方面更新后仍是一句简洁的话；需要时压缩原概括与新信息，避免越写越长。",
          "4. 时间段仅供参考：原概括覆盖的时间越长，近期情况对它的影响应越小；概括中不写具体时间。",
          '5. 先在 "updating_aspects" 中列出要更新的方面，再在 "updating_content" 中给出它们的新概括；只输出下面格式的 JSON。',
          block(example),
        ])
      : lines([
          "Update the summary of the user's background from the user's recent situations.",
          '# Previous background ("background": one sentence for each of work, health, family and leisure, empty when nothing is known yet; "time_span": the period it covers)',
          block(json(last)),
          '# Recent situations not yet in the background ("time_span": their period; "situation_list": the situations)',
          block(json(current)),
          "# What to do",
          "1. The background describes the user's lasting traits in each aspect (occupation, health, family members, hobbies, ...), not specific events.",
          "2. Leave an aspect unchanged when the situations say nothing about it, when the summary already covers it, or when the news is too specific.",
          "3. Each updated aspect stays one concise sentence; compress the old summary and the new information so it does not keep growing.",
          "4. The periods are for reference: the longer the previous summary's period, the less recent situations should move it. Mention no dates.",
          '5. List the aspects to update in "updating_aspects" and give their new summaries in "updating_content"; answer with the JSON below only.',
          block(example),
        ]);
  return prompt("background", SYSTEM[lang], user);
}

/** Step 4-1: a requirement type (short phrase) for a cluster of requirements. */
export function requirementAbstractionPrompt(lang: Lang, requirements: string[]): Prompt {
  const example = '{"general_requirement": "..."}';
  const user =
    lang === "zh"
      ? lines([
          "助手已根据交互历史整理出用户在具体情境下的一批需求，它们语义相近。请把它们归纳成一个更抽象的总体需求类型。",
          "# 具体需求（列表，每项一条需求）",
          block(json(requirements)),
          "# 要求",
          "1. 输出一个简短的短语，不含具体情境细节；它应体现这些需求共同所属的大方面，即使只有一条需求也要做抽象。",
          "2. 只输出下面格式的 JSON。",
          block(example),
        ])
      : lines([
          "From the interaction history the assistant has collected a batch of the user's specific, semantically similar requirements. Generalise them into one more abstract requirement type.",
          "# Specific requirements (a list, one requirement each)",
          block(json(requirements)),
          "# What to do",
          "1. Give a short phrase with no situational detail that names the broad area these requirements share; abstract even when there is only one.",
          "2. Answer with the JSON below only.",
          block(example),
        ]);
  return prompt("requirement-abstraction", SYSTEM[lang], user);
}

/** Step 4-2: a one-sentence preference principle for a requirement type. */
export function preferenceAbstractionPrompt(lang: Lang, generalRequirement: string, preferences: string[]): Prompt {
  const example = '{"principle": "..."}';
  const user =
    lang === "zh"
      ? lines([
          "助手已整理出用户在某一需求类型下的多条具体偏好经验。请把它们归纳成一条更抽象、适用更广的偏好原则。",
          "# 需求类型",
          block(generalRequirement),
          "# 用户偏好经验（列表，每项一条经验）",
          block(json(preferences)),
          "# 要求",
          "1. 原则是一句简洁的话，体现用户在该需求类型下的总体偏好；即使只有一条经验也要做抽象。",
          "2. 只输出下面格式的 JSON。",
          block(example),
        ])
      : lines([
          "The assistant has collected several of the user's specific preference experiences for one requirement type. Generalise them into one more abstract, more widely applicable preference principle.",
          "# Requirement type",
          block(generalRequirement),
          "# Preference experiences (a list, one experience each)",
          block(json(preferences)),
          "# What to do",
          "1. The principle is one concise sentence stating the user's overall preference for this requirement type; abstract even from a single experience.",
          "2. Answer with the JSON below only.",
          block(example),
        ]);
  return prompt("preference-abstraction", SYSTEM[lang], user);
}

/** Step 4-3: keep or revise a requirement type given newly joined requirements. */
export function requirementUpdatePrompt(lang: Lang, generalRequirement: string, requirements: string[]): Prompt {
  const example = '{"adjust": "No"}\n{"adjust": "Yes", "general_requirement": "..."}';
  const user =
    lang === "zh"
      ? lines([
          "助手此前把用户的多条同类需求归纳成了一个总体需求类型，现在又有几条该类型的新需求。请判断原类型描述是否需要调整。",
          "# 总体需求类型",
          block(generalRequirement),
          "# 新增的具体需求（列表）",
          block(json(requirements)),
          "# 要求",
          "1. 原描述已概括了历史上的同类需求，除非新需求与它冲突，否则保持不变。",
          "2. 需要调整时，综合原描述与新需求，仍写成一个简短、抽象、不含具体例子和偏好信息的短语。",
          '3. 不调整时输出第一种 JSON，调整时输出第二种；"adjust" 取 "Yes" 或 "No"。只输出 JSON。',
          block(example),
        ])
      : lines([
          "The assistant earlier generalised several similar requirements of the user into one requirement type; now some new requirements of that type have come in. Decide whether the type's description needs revising.",
          "# Requirement type",
          block(generalRequirement),
          "# New specific requirements (a list)",
          block(json(requirements)),
          "# What to do",
          "1. The description already generalises the earlier requirements: keep it unless the new ones conflict with it.",
          "2. When revising, weigh the old description and the new requirements together and keep it a short abstract phrase, with no concrete examples and no preferences.",
          '3. Answer with the first JSON to keep it, the second to revise it; "adjust" is "Yes" or "No". JSON only.',
          block(example),
        ]);
  return prompt("requirement-update", SYSTEM[lang], user);
}

/** Step 4-4: keep or revise a preference principle given newly joined preference experiences. */
export function preferenceUpdatePrompt(lang: Lang, generalRequirement: string, principle: string, preferences: string[]): Prompt {
  const example = '{"adjust": "No"}\n{"adjust": "Yes", "principle": "..."}';
  const user =
    lang === "zh"
      ? lines([
          "助手此前把用户在某需求类型下的多条偏好经验归纳成了一条偏好原则，现在又有几条该类型的新经验。请判断原则是否需要调整。",
          "# 需求类型",
          block(generalRequirement),
          "# 偏好原则",
          block(principle),
          "# 新增的偏好经验（列表）",
          block(json(preferences)),
          "# 要求",
          "1. 原则已概括了历史经验，除非新经验与之冲突或原则明显漏掉了重要内容，否则保持不变。",
          "2. 需要调整时，综合原则与新经验，仍写成一句简洁、抽象、对应该需求类型的话。",
          '3. 不调整时输出第一种 JSON，调整时输出第二种；"adjust" 取 "Yes" 或 "No"。只输出 JSON。',
          block(example),
        ])
      : lines([
          "The assistant earlier generalised the user's preference experiences for one requirement type into a principle; now some new experiences of that type have come in. Decide whether the principle needs revising.",
          "# Requirement type",
          block(generalRequirement),
          "# Preference principle",
          block(principle),
          "# New preference experiences (a list)",
          block(json(preferences)),
          "# What to do",
          "1. The principle already generalises the earlier experiences: keep it unless the new ones conflict with it or it clearly misses something important in them.",
          "2. When revising, weigh the principle and the new experiences together; keep one concise abstract sentence that fits the requirement type.",
          '3. Answer with the first JSON to keep it, the second to revise it; "adjust" is "Yes" or "No". JSON only.',
          block(example),
        ]);
  return prompt("preference-update", SYSTEM[lang], user);
}

/** Multi-turn task: summarise the need expressed so far, as the retrieval query (no preferences). */
export function queryGenerationPrompt(lang: Lang, context: Array<{ role: "user" | "assistant"; content: string }>): Prompt {
  const example = '{"requirement": "..."}';
  const text = context.map((m) => `${m.role}: ${m.content}`).join("\n");
  const user =
    lang === "zh"
      ? lines([
          "你正在和用户对话，对话中可能有用户的需求和对方案的讨论。请用一句话概括用户在当前对话中表达的需求。",
          "# 对话上下文",
          block(text),
          "# 要求",
          "1. 简洁地写出用户当前想要解决的具体需求，不必关注用户对方案的偏好。",
          "2. 只输出下面格式的 JSON。",
          block(example),
        ])
      : lines([
          "You are in a dialogue with the user, which may contain their need and a discussion of solutions. Summarise in one sentence the need the user has expressed so far.",
          "# Dialogue so far",
          block(text),
          "# What to do",
          "1. State concisely the concrete need the user wants to address; ignore their preferences about solutions.",
          "2. Answer with the JSON below only.",
          block(example),
        ]);
  return prompt("query-generation", SYSTEM[lang], user);
}

/**
 * A topic outline as text for the memory block of a task prompt: the requirement alone, or (solution phase)
 * the requirement with its solutions and the user's feedback on each, what the paper's R(M_T) holds and the
 * public code's solution prompts show. The outline's own preference line is not shown: the preference
 * principles (F_TP) carry the abstracted preferences.
 */
export function outlineText(lang: Lang, o: Pick<TopicOutline, "requirement" | "solution_list">, withSolutions: boolean): string {
  if (!withSolutions) return o.requirement;
  const fb = (t: string) =>
    (lang === "zh" ? { pos: "接受", neg: "拒绝", others: "不明" } : { pos: "accepted", neg: "rejected", others: "unclear" })[t] ?? t;
  const sols = o.solution_list.map((s) => `  - ${s.solution} (${fb(s.feedback_type)}${s.user_feedback ? `: ${s.user_feedback}` : ""})`);
  return lines([
    `${lang === "zh" ? "需求" : "Requirement"}: ${o.requirement}`,
    ...(sols.length ? [`${lang === "zh" ? "方案与反馈" : "Solutions and feedback"}:`, ...sols] : []),
  ]);
}
