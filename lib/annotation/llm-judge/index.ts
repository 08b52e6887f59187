/** LLM judges on a campaign's items: the registry, the judges and their runs. */
export { judgeForKind } from "./adapters";
export type { CampaignJudgeDef, JudgeItem, JudgeSettings, DimensionOutcome } from "./types";
export {
  runLlmJudge,
  estimateLlmJudge,
  ensureLlmJudgeRun,
  llmJudgeRuns,
  deleteJudgeRun,
  judgeConfigChoices,
  startLlmJudge,
  type LlmJudgeRunInfo,
  type LlmJudgeOptions,
  type LlmJudgeEstimate,
  type LlmJudgeResult,
} from "./run";
