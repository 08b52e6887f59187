import { z } from "zod";
import type { Assistant } from "../core/types";
import { answerWithSections, indexOf, logContextOf, putEntries, retrievalQuery, storeLogs, toBaselineSession } from "../baselines/adapter";
import { pick } from "../baselines/history-text";
import { retrieveSessions, sessionEntries, type SessionDoc } from "./retrieve";

const options = z.object({ k: z.number().int().min(1).max(20).default(3) });

/** `session-rag`: the top-k whole earlier dialogues plus Mem-PAL's log handling. No build calls. */
export const sessionRag: Assistant<z.infer<typeof options>> = {
  id: "session-rag",
  label: "Session-level RAG",
  description: "Retrieves the top-k whole dialogues of earlier sessions, plus the current logs and the top-k earlier logs.",
  options,
  entryKinds: ["log", "session"],
  buildRoles: [],
  usesRetriever: true,
  buildLogs: async (ctx, s) => storeLogs(ctx, s),
  buildDialogue: async (ctx, s) => putEntries(ctx, sessionEntries(ctx.language, toBaselineSession(s))),
  respond: async (ctx, input) => {
    const q = retrievalQuery(input);
    const logs = await logContextOf(ctx, ctx.options.k, q);
    const hits = await retrieveSessions(
      indexOf(ctx),
      ctx.options.k,
      q,
      ctx.memory.list<SessionDoc>("session").map((e) => e.content),
    );
    const label = pick(ctx.language, "相关的历史对话", "Related earlier dialogues");
    return answerWithSections(
      ctx,
      "session-rag",
      input,
      logs,
      [{ label, items: hits.map((s) => `[${s.date}]\n${s.text}`) }],
      hits.map((s) => ({ kind: "session", key: s.sampleKey, text: s.text })),
    );
  },
};
