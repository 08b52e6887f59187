import { z } from "zod";
import type { Assistant } from "../core/types";
import { answerWithMemory } from "../core/answer";
import { formatLogs, section } from "../core/format";

/** `vanilla-log`: the task input plus every log of the current session; keeps no memory. */
export const vanillaLog: Assistant<Record<string, never>> = {
  id: "vanilla-log",
  label: "Vanilla + logs",
  description: "Answers from the task input and all logs of the current session; keeps no memory.",
  options: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  entryKinds: [],
  buildRoles: [],
  usesRetriever: false,
  respond: (ctx, input) => {
    const logs = ctx.current.logs;
    const text = section({ en: "The user's recent logs", zh: "用户近期日志" }, ctx.language, formatLogs(logs));
    const retrieved = logs.map((l, i) => ({ kind: "log", key: `${ctx.current.key}#${i}`, text: `[${l.timestamp}] ${l.content}` }));
    return answerWithMemory(ctx, "vanilla-log", input, text, retrieved);
  },
};
