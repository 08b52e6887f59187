/**
 * TEST DOUBLE: a small memory method for tests of the builder, the memory store and prompt hygiene.
 * It uses the model for both build phases (so leaks would travel through memory) and answers with
 * everything its memory holds at the asked point. Registered only by tests.
 */
import { z } from "zod";
import type { Assistant } from "@/lib/assistants/core/types";
import { answerWithMemory } from "@/lib/assistants/core/answer";
import { formatLogs } from "@/lib/assistants/core/format";
import { ASSISTANTS } from "@/lib/assistants/registry";

const Summary = z.object({ summary: z.string() });

export const probe: Assistant<{ window: number }> = {
  id: "probe",
  label: "Probe (test double)",
  description: "Test double: summarises logs and dialogues through the model and answers with all of it.",
  options: z.object({ window: z.number().int().default(3) }),
  entryKinds: ["log", "log-summary", "dialogue-summary", "last-dialogue"],
  buildRoles: ["assistant"],
  usesRetriever: false,
  async buildLogs(ctx, session) {
    ctx.memory.putMany(
      "log",
      session.logs.map((l, i) => ({ key: `${session.key}#${i}`, content: l })),
    );
    const r = await ctx.llm.chat({
      messages: [{ role: "user", content: `PROBE-LOGS summarise these logs:\n${formatLogs(session.logs)}` }],
      schema: Summary,
      purpose: "probe.logs",
    });
    ctx.memory.put("log-summary", "current", r.value.summary);
  },
  async buildDialogue(ctx, session) {
    const text = session.dialogue.map((t) => `user: ${t.user}\nassistant: ${t.assistant}`).join("\n");
    const r = await ctx.llm.chat({
      messages: [{ role: "user", content: `PROBE-DIALOGUE summarise:\n${text}` }],
      schema: Summary,
      purpose: "probe.dialogue",
    });
    ctx.memory.put("dialogue-summary", session.key, r.value.summary);
    ctx.memory.put("last-dialogue", "latest", r.value.summary);
  },
  respond(ctx, input) {
    const entries = ctx.memory.list();
    const text = entries.map((e) => `${e.kind}/${e.key}: ${JSON.stringify(e.content)}`).join("\n");
    const logs = formatLogs(ctx.current.logs);
    return answerWithMemory(
      ctx,
      "probe",
      input,
      `${text}\n${logs}`,
      entries.map((e) => ({ kind: e.kind, key: e.key, text: JSON.stringify(e.content) })),
    );
  },
};

/** Adds the probe to the registry of this test process (vitest isolates modules per file). */
export function registerProbe(): void {
  const list = ASSISTANTS as Assistant<unknown>[];
  if (!list.some((a) => a.id === "probe")) list.push(probe as Assistant<unknown>);
}

/**
 * A deterministic fake model for the probe and the task prompts: a summary repeats every marker
 * (MK_...) of the prompt, so whatever reaches memory is traceable in later prompts.
 */
export function probeResponder(req: { messages: Array<{ role: string; content: unknown }> }): string {
  const first = String(req.messages[0]?.content ?? "");
  const markers = [...new Set(first.match(/MK_[A-Z0-9_]+/g) ?? [])].join(" ");
  if (first.startsWith("PROBE-")) return JSON.stringify({ summary: `saw ${markers}` });
  if (first.includes('{"requirement"'))
    return `Here you go:\n\`\`\`json\n${JSON.stringify({ requirement: `needs ${markers}`.trim() })}\n\`\`\``;
  if (first.includes('{"solution"')) return JSON.stringify({ solution: "a quiet walk" });
  if (first.includes('"selected_solutions"')) return JSON.stringify({ analysis: "fits", selected_solutions: ["1", "2"] });
  if (first.includes('{"content"')) return JSON.stringify({ content: "Could you tell me more?" });
  return `An answer that fits the user. ${markers}`;
}
