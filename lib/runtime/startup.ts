/**
 * What a server does when it starts, besides its experiments worker: background work a previous server
 * process left unfinished (it was killed or crashed) is resumed, so a restart needs no clicks. Each kind
 * resumes from what is stored and takes paid model calls from the cache: nothing is paid twice.
 * It lives above lib/experiments and lib/annotation (it resumes both), so neither imports the other's startup.
 */
import type { Db } from "@/db/client";
import { resumeInterruptedBuilds } from "@/lib/assistants/core/build-jobs";
import { resumeUnfinishedJudgeRuns } from "@/lib/annotation/llm-judge/run";
import { serverJudgeClient } from "@/lib/annotation/llm-judge/request";
import { sumUnsummedExperiments } from "@/lib/experiments/aggregates";
import { recordUnrecordedExperiments } from "@/lib/experiments/run-record";

export function resumeInterruptedWork(db: Db): { memoryBuilds: number[]; judgeRuns: number[]; summed: number[]; recorded: number[] } {
  // Experiments from before the running sums get theirs once, here rather than in a page request.
  const summed = sumUnsummedExperiments(db);
  if (summed.length) console.log(`summed the results of experiments [${summed.join(", ")}] once (from before the running sums)`);
  // And those from before run records get theirs, from their ledgers.
  const recorded = recordUnrecordedExperiments(db);
  if (recorded.length)
    console.log(`made the run records of experiments [${recorded.join(", ")}] from their ledgers (from before run records)`);
  const memoryBuilds = resumeInterruptedBuilds(db);
  const judgeRuns = resumeUnfinishedJudgeRuns(db, serverJudgeClient(db));
  if (memoryBuilds.length || judgeRuns.length)
    console.log(`resumed after a restart: memory builds [${memoryBuilds.join(", ")}], LLM judge runs [${judgeRuns.join(", ")}]`);
  return { memoryBuilds, judgeRuns, summed, recorded };
}
