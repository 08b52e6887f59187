/**
 * Resume and Cancel of an LLM judge run (issue 44.3): a run paused by its spend guard (an unreachable
 * endpoint, failures) is resumed with its recorded settings once the cause is fixed; Cancel stops a
 * running run before its next request, or marks a paused one cancelled so it is not resumed at start.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { judgeRuns } from "@/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import type { ModelClient } from "@/lib/llm";
import { CANCELLED, cancelRequested } from "./cancel";
import { isJudgeRunActive, startLlmJudge, storedRunOptions } from "./run";

function llmRun(db: Db, campaignId: number, runId: number) {
  const r = Number.isInteger(runId)
    ? db
        .select()
        .from(judgeRuns)
        .where(and(eq(judgeRuns.id, runId), eq(judgeRuns.campaignId, campaignId), eq(judgeRuns.origin, "llm")))
        .get()
    : undefined;
  if (!r) throw new NotFoundError(`no LLM judge run ${runId} in campaign ${campaignId}`);
  return r;
}

/** Starts the run again as it was recorded: stored verdicts kept, the rest judged. */
export function resumeLlmJudge(db: Db, client: ModelClient, campaignId: number, runId: number): { runId: number; started: boolean } {
  const r = llmRun(db, campaignId, runId);
  if (isJudgeRunActive(runId)) return { runId, started: false };
  if (r.finishedAt !== null && !r.pausedReason) throw new ConflictError(`judge run ${runId} has finished; nothing to resume`);
  return startLlmJudge(db, client, campaignId, storedRunOptions(r.config), r.createdBy ?? 0);
}

/** Stops the run: a running one before its next request, a paused one marked cancelled (never resumed at start). */
export function cancelLlmJudge(db: Db, campaignId: number, runId: number): { runId: number; cancelled: true } {
  llmRun(db, campaignId, runId);
  if (isJudgeRunActive(runId)) cancelRequested.add(runId);
  db.update(judgeRuns).set({ pausedReason: CANCELLED }).where(eq(judgeRuns.id, runId)).run();
  return { runId, cancelled: true };
}
