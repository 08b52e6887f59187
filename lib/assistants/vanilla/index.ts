import { z } from "zod";
import type { Assistant } from "../core/types";
import { answerWithMemory } from "../core/answer";

/** `vanilla`: the task input alone, no memory (the paper's lower bound). */
export const vanilla: Assistant<Record<string, never>> = {
  id: "vanilla",
  label: "Vanilla",
  description: "Answers from the task input alone; keeps no memory.",
  options: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  entryKinds: [],
  buildRoles: [],
  usesRetriever: false,
  respond: (ctx, input) => answerWithMemory(ctx, "vanilla", input, "", []),
};
