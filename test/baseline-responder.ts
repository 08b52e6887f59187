/**
 * TEST DOUBLE helper: a deterministic fake model for the six memory baselines' prompts (recognised
 * by their wording) over the marked data sets (test/marked-data.ts). Every summary-like reply repeats
 * the markers (MK_...) of its prompt, so what reaches memory is traceable in later prompts; the
 * ConditionMem decision says yes for user inputs of odd length, so tests can count the records.
 * Task prompts fall through to `fallback`.
 */
export type BaselineRequest = { messages: Array<{ role: string; content: unknown }> };

const text = (req: BaselineRequest) => req.messages.map((m) => String(m.content ?? "")).join("\n");
const markersOf = (s: string) => [...new Set(s.match(/MK_[A-Z0-9_]+/g) ?? [])].join(" ");
const userInputOf = (s: string) => /(?:User input: |用户的话：)([^\n]*)/.exec(s)?.[1] ?? "";
const isZh = (req: BaselineRequest) => /[\u4e00-\u9fff]/.test(String(req.messages[0]?.content ?? ""));

/** The "worth remembering" rule of this fake model. */
export const fakeWorthRemembering = (userInput: string) => userInput.length % 2 === 1;

/** Which baseline step a prompt belongs to, or null for anything else (task prompts). */
export function baselinePurpose(req: BaselineRequest): string | null {
  const s = text(req);
  if (s.includes("You keep a long-term memory about one user") || s.includes("你负责维护一份关于某位用户的长期记忆"))
    return "recursum.dialogue-summary";
  if (s.includes("based on the behaviour logs their devices recorded") || s.includes("依据的是用户设备记录下的行为日志"))
    return "recursum.log-summary";
  if (s.includes("deciding whether one thing the user said is worth remembering") || s.includes("要判断用户的一句话是否值得记下来"))
    return "conditionmem.decision";
  if (s.includes("Write a memory record for one user input") || s.includes("你要为一句值得记住的用户发言写一条记忆"))
    return "conditionmem.record";
  if (s.includes("First decide whether the candidate memory holds enough") || s.includes("先判断候选记忆中的信息是否足以做出回应"))
    return "conditionmem.reflection";
  if (s.includes("Summarise the main events of one conversation") || s.includes("请概括一段用户与助手的对话中发生的主要事件"))
    return "memorybank.event";
  if (s.includes("From one conversation, describe the user") || s.includes("请根据一段对话分析用户")) return "memorybank.daily-portrait";
  if (s.includes("You keep an overview of all of a user's past events") || s.includes("你维护一份用户所有历史事件的总览"))
    return "memorybank.global-summary";
  if (s.includes("You keep an overall portrait of a user") || s.includes("你维护一份用户的整体画像")) return "memorybank.global-portrait";
  if (s.includes("picking out the events in a conversation") || s.includes("你擅长从对话中提炼事件")) return "ld-agent.event-summary";
  if (s.includes("reading a speaker's personal traits") || s.includes("你善于从一个人说的话里看出他的个人特点")) return "ld-agent.persona";
  return null;
}

export function baselineResponder(fallback: (req: BaselineRequest) => string) {
  return (req: BaselineRequest): string => {
    const s = text(req);
    const m = markersOf(s);
    // Prose replies in the prompt's language, so the client's language check accepts them.
    const w = isZh(req)
      ? { noted: "已记录", portrait: "画像", why: "原因", note: "备忘", trait: "特点" }
      : { noted: "noted", portrait: "portrait", why: "why", note: "note", trait: "trait" };
    switch (baselinePurpose(req)) {
      case "recursum.dialogue-summary":
      case "recursum.log-summary":
      case "memorybank.event":
      case "memorybank.global-summary":
      case "ld-agent.event-summary":
        return JSON.stringify({ summary: `${w.noted} ${m}`.trim() });
      case "memorybank.daily-portrait":
      case "memorybank.global-portrait":
        return JSON.stringify({ portrait: `${w.portrait} ${m}`.trim() });
      case "conditionmem.decision":
        return JSON.stringify({ decision: fakeWorthRemembering(userInputOf(s)) ? "yes" : "no" });
      case "conditionmem.record":
        return JSON.stringify({ context: "NaN", summary: `${w.why} ${m}`.trim(), note: `${w.note} ${markersOf(userInputOf(s))}`.trim() });
      case "conditionmem.reflection":
        return JSON.stringify({ query: ["topic", "preference"] });
      case "ld-agent.persona":
        return JSON.stringify({
          traits: /\bUser says\b|我/.test(/(?:Sentence: |句子：)([^\n]*)/.exec(s)?.[1] ?? "") ? [`${w.trait} ${m}`.trim()] : [],
        });
      default:
        return fallback(req);
    }
  };
}
