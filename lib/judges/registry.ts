/**
 * Every judge, one list: the experiments' tasks (lib/tasks) and campaign judging (lib/annotation/llm-judge)
 * take their judges from here. A new judge is one module (or folder) exporting a `Judge` (./judge.ts) plus
 * one line here; docs/conventions.md, "How to add a judge".
 */
import { InvalidInputError } from "@/lib/errors";
import type { JudgeInfo } from "./judge";
import { gscoreJudge } from "./gscore";
import { dialoguePairJudge } from "./dialogue-pair";
import { hicupidAbJudge, hicupidScheduleJudge } from "./hicupid";
import { ratingJudge } from "./rating";
import { longmemevalJudge } from "./longmemeval";

export const JUDGES = {
  gscore: gscoreJudge,
  "dialogue-pair": dialoguePairJudge,
  "hicupid-ab": hicupidAbJudge,
  "hicupid-schedule": hicupidScheduleJudge,
  rating: ratingJudge,
  longmemeval: longmemevalJudge,
} as const;

export type JudgeName = keyof typeof JUDGES;

export const JUDGE_LIST: readonly JudgeInfo[] = Object.values(JUDGES);

export function isJudgeName(name: string): name is JudgeName {
  return Object.hasOwn(JUDGES, name);
}

/** A judge by name, or an error naming the judges there are. */
export function judgeInfo(name: string): JudgeInfo {
  if (!isJudgeName(name)) throw new InvalidInputError(`unknown judge "${name}" (judges: ${Object.keys(JUDGES).join(", ")})`);
  return JUDGES[name];
}
