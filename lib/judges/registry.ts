/**
 * Every judge, one list. A judge is a scorer that calls the judge role of the model client; its version
 * is stored with each score row so that re-scoring with a changed prompt or parser keeps the history.
 */
import { GSCORE_JUDGE_VERSION } from "./gscore";
import { DIALOGUE_JUDGE_VERSION } from "./dialogue-pair";
import { HICUPID_JUDGE_VERSION } from "./hicupid";

export type JudgeDef = { name: string; label: string; version: number; task: string };

export const JUDGES: readonly JudgeDef[] = [
  { name: "gscore", label: "G-Score judge (requirement restatement)", version: GSCORE_JUDGE_VERSION, task: "requirement" },
  { name: "dialogue-pair", label: "Pairwise dialogue judge (FairEval, 6 calls)", version: DIALOGUE_JUDGE_VERSION, task: "dialogue" },
  { name: "hicupid-ab", label: "HiCUPID A/B/Tie judge (persona, profile)", version: HICUPID_JUDGE_VERSION, task: "hicupid" },
  { name: "hicupid-schedule", label: "HiCUPID YES/NO judge (schedule)", version: HICUPID_JUDGE_VERSION, task: "hicupid" },
];

export function judge(name: string): JudgeDef {
  const j = JUDGES.find((x) => x.name === name);
  if (!j) throw new Error(`unknown judge ${name}`);
  return j;
}
