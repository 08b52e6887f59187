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
const userInputOf = (s: string) => /User input: ([^\n]*)/.exec(s)?.[1] ?? "";

/** The "worth remembering" rule of this fake model. */
export const fakeWorthRemembering = (userInput: string) => userInput.length % 2 === 1;

/** Which baseline step a prompt belongs to, or null for anything else (task prompts). */
export function baselinePurpose(req: BaselineRequest): string | null {
  const s = text(req);
  if (s.includes("You keep a long-term memory about one user")) return "recursum.dialogue-summary";
  if (s.includes("based on the behaviour logs their devices recorded")) return "recursum.log-summary";
  if (s.includes("deciding whether one thing the user said is worth remembering")) return "conditionmem.decision";
  if (s.includes("Write a memory record for one user input")) return "conditionmem.record";
  if (s.includes("First decide whether the candidate memory holds enough")) return "conditionmem.reflection";
  if (s.includes("Summarise the main events of one conversation")) return "memorybank.event";
  if (s.includes("From one conversation, describe the user")) return "memorybank.daily-portrait";
  if (s.includes("You keep an overview of all of a user's past events")) return "memorybank.global-summary";
  if (s.includes("You keep an overall portrait of a user")) return "memorybank.global-portrait";
  if (s.includes("picking out the events in a conversation")) return "ld-agent.event-summary";
  if (s.includes("reading a speaker's personal traits")) return "ld-agent.persona";
  return null;
}

export function baselineResponder(fallback: (req: BaselineRequest) => string) {
  return (req: BaselineRequest): string => {
    const s = text(req);
    const m = markersOf(s);
    switch (baselinePurpose(req)) {
      case "recursum.dialogue-summary":
      case "recursum.log-summary":
      case "memorybank.event":
      case "memorybank.global-summary":
      case "ld-agent.event-summary":
        return JSON.stringify({ summary: `noted ${m}`.trim() });
      case "memorybank.daily-portrait":
      case "memorybank.global-portrait":
        return JSON.stringify({ portrait: `portrait ${m}`.trim() });
      case "conditionmem.decision":
        return JSON.stringify({ decision: fakeWorthRemembering(userInputOf(s)) ? "yes" : "no" });
      case "conditionmem.record":
        return JSON.stringify({ context: "NaN", summary: `why ${m}`.trim(), note: `note ${markersOf(userInputOf(s))}`.trim() });
      case "conditionmem.reflection":
        return JSON.stringify({ query: ["topic", "preference"] });
      case "ld-agent.persona":
        return JSON.stringify({ traits: /\bUser says\b/.test(s) ? [`trait ${m}`.trim()] : [] });
      default:
        return fallback(req);
    }
  };
}
