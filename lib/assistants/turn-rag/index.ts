import { z } from "zod";
import type { Assistant } from "../core/types";
import { answerWithSections, indexOf, logContextOf, putEntries, retrievalQuery, storeLogs, toBaselineSession } from "../baselines/adapter";
import { pick } from "../baselines/history-text";
import { retrieveUtterances, utteranceEntries, utteranceText, type Utterance } from "./retrieve";

const options = z.object({ k: z.number().int().min(1).max(20).default(3) });

/** `turn-rag`: the top-k utterances of earlier dialogues plus Mem-PAL's log handling. No build calls. */
export const turnRag: Assistant<z.infer<typeof options>> = {
  id: "turn-rag",
  label: "Turn-level RAG",
  description: "Retrieves the top-k single utterances of earlier dialogues, plus the current logs and the top-k earlier logs.",
  options,
  entryKinds: ["log", "utterance"],
  buildRoles: [],
  usesRetriever: true,
  buildLogs: async (ctx, s) => storeLogs(ctx, s),
  buildDialogue: async (ctx, s) => putEntries(ctx, utteranceEntries(toBaselineSession(s))),
  respond: async (ctx, input) => {
    const q = retrievalQuery(input);
    const logs = await logContextOf(ctx, ctx.options.k, q);
    const hits = await retrieveUtterances(
      indexOf(ctx),
      ctx.options.k,
      ctx.language,
      q,
      ctx.memory.list<Utterance>("utterance").map((e) => e.content),
    );
    const label = pick(ctx.language, "相关的历史对话语句", "Related earlier utterances");
    return answerWithSections(
      ctx,
      "turn-rag",
      input,
      logs,
      [{ label, items: hits.map((u) => utteranceText(ctx.language, u)) }],
      hits.map((u) => ({ kind: "utterance", key: `${u.seq}:turn_${u.turn}:${u.speaker}`, text: utteranceText(ctx.language, u) })),
    );
  },
};
