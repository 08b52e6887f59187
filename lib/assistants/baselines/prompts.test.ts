import { describe, expect, it } from "vitest";
import type { ChatMessage, Lang } from "./history-text";
import * as rs from "../recursum/prompts";
import * as cm from "../conditionmem/prompts";
import * as mb from "../memorybank/prompts";
import * as ld from "../ld-agent/prompts";

const turns = [{ user: "U-TEXT", assistant: "A-TEXT" }];
const logs = [{ timestamp: "2024-01-01 09:00", content: "LOG-TEXT" }];
const PROMPTS: Record<string, { build: (l: Lang) => ChatMessage[]; keys: string[]; inputs: string[] }> = {
  "recursum.dialogue": {
    build: (l) => rs.dialogueSummaryPrompt(l, "PREV", turns),
    keys: ["summary"],
    inputs: ["PREV", "U-TEXT", "A-TEXT"],
  },
  "recursum.logs": { build: (l) => rs.logSummaryPrompt(l, "PREV", logs), keys: ["summary"], inputs: ["PREV", "LOG-TEXT"] },
  "conditionmem.decision": { build: (l) => cm.decisionPrompt(l, "U-TEXT"), keys: ["decision"], inputs: ["U-TEXT"] },
  "conditionmem.record": {
    build: (l) => cm.recordPrompt(l, turns, "NEW-INPUT"),
    keys: ["context", "summary", "note"],
    inputs: ["U-TEXT", "NEW-INPUT"],
  },
  "conditionmem.reflection": {
    build: (l) => cm.reflectionPrompt(l, ["MEM-1"], "U-TEXT"),
    keys: ["memory", "query"],
    inputs: ["MEM-1", "U-TEXT"],
  },
  "memorybank.event": { build: (l) => mb.eventSummaryPrompt(l, "DATE", turns), keys: ["summary"], inputs: ["DATE", "U-TEXT"] },
  "memorybank.daily": { build: (l) => mb.dailyPortraitPrompt(l, "DATE", turns), keys: ["portrait"], inputs: ["DATE", "U-TEXT"] },
  "memorybank.global-summary": {
    build: (l) => mb.globalSummaryPrompt(l, "PREV", "DATE", "EVENT"),
    keys: ["summary"],
    inputs: ["PREV", "EVENT"],
  },
  "memorybank.global-portrait": {
    build: (l) => mb.globalPortraitPrompt(l, "PREV", "DATE", "DAILY"),
    keys: ["portrait"],
    inputs: ["PREV", "DAILY"],
  },
  "ld-agent.event": { build: (l) => ld.eventSummaryPrompt(l, ["User: U-TEXT"]), keys: ["summary"], inputs: ["U-TEXT"] },
  "ld-agent.persona": { build: (l) => ld.personaPrompt(l, "U-TEXT"), keys: ["traits"], inputs: ["U-TEXT"] },
};
const CJK = /[\u4e00-\u9fff]/;

describe.each(Object.entries(PROMPTS))("prompt %s", (_, p) => {
  it.each(["zh", "en"] as const)("in %s: the right language, every input, the output keys", (lang) => {
    const text = p
      .build(lang)
      .map((m) => m.content)
      .join("\n");
    const instructions = text.replace(/[A-Z]+-TEXT|PREV|DATE|EVENT|DAILY|MEM-1|NEW-INPUT/g, "");
    expect(CJK.test(instructions)).toBe(lang === "zh");
    for (const i of p.inputs) expect(text).toContain(i);
    for (const k of p.keys) expect(text).toContain(`"${k}"`);
  });
});

describe("output schemas", () => {
  it("accept the papers' shapes and refuse broken ones", () => {
    expect(cm.decisionSchema.safeParse({ decision: "maybe" }).success).toBe(false);
    expect(cm.reflectionSchema.safeParse({ memory: "x" }).success).toBe(true);
    expect(cm.reflectionSchema.safeParse({ query: ["a", "b"] }).success).toBe(true);
    expect(cm.reflectionSchema.safeParse({ memory: "x", query: ["a"] }).success).toBe(false);
    expect(cm.recordSchema.safeParse({ context: "NaN", summary: "", note: "n" }).success).toBe(false);
    expect(ld.personaSchema.safeParse({ traits: [] }).success).toBe(true);
  });
});
