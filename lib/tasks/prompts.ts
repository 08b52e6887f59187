/**
 * Output schemas of the task-side prompts. The assistant's own task prompts (requirement, solution,
 * selection, dialogue turn, HiCUPID answer) live in lib/assistants/core/task-prompts.ts: every method answers
 * with them through respond(). The user simulator's utterance is {"content"}, as in the paper.
 */
import { z } from "zod";

export const utteranceOutput = z.object({ content: z.string().min(1) });
