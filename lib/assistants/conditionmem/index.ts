import { z } from "zod";
import type { Assistant } from "../core/types";
import {
  answerWithSections,
  chatOf,
  indexOf,
  logContextOf,
  putEntries,
  retrievalQuery,
  storeLogs,
  toBaselineSession,
} from "../baselines/adapter";
import { pick } from "../baselines/history-text";
import { conditionmemEstimate } from "./calls";
import { conditionmemStep, initialConditionMemState, recordText, type StoredRecord } from "./engine";
import { conditionmemRecall } from "./recall";

const options = z.object({ k: z.number().int().min(1).max(20).default(3) });

/**
 * `conditionmem`: conditional records for the user inputs worth remembering, retrieved top-k with
 * at most one self-reflection; plus Mem-PAL's log handling.
 */
export const conditionmem: Assistant<z.infer<typeof options>> = {
  id: "conditionmem",
  label: "ConditionMem",
  description: "Remembers only user inputs worth it, as {why, note} records; retrieves with one self-reflection.",
  options,
  entryKinds: ["log", "record"],
  buildRoles: ["assistant"],
  usesRetriever: true,
  estimateBuild: (sessions, ctx) => conditionmemEstimate(sessions, ctx.done),
  buildLogs: async (ctx, s) => storeLogs(ctx, s),
  buildDialogue: async (ctx, s) => {
    // Records of one session do not depend on earlier ones, so no state is read back.
    const r = await conditionmemStep({ chat: chatOf(ctx), lang: ctx.language }, initialConditionMemState(), toBaselineSession(s));
    putEntries(ctx, r.entries);
  },
  respond: async (ctx, input) => {
    const q = retrievalQuery(input);
    const logs = await logContextOf(ctx, ctx.options.k, q);
    const records = ctx.memory.list<StoredRecord>("record").map((e) => e.content);
    const recall = await conditionmemRecall(chatOf(ctx), indexOf(ctx), ctx.language, ctx.options.k, q, records);
    const items = recall.kept !== null ? [recall.kept] : recall.records.map(recordText);
    const label = pick(ctx.language, "关于用户的记忆", "What was remembered about the user");
    return answerWithSections(
      ctx,
      "conditionmem",
      input,
      logs,
      [{ label, items }],
      recall.records.map((r) => ({ kind: "record", key: `${r.seq}:turn_${r.turn}`, text: recordText(r) })),
    );
  },
};
