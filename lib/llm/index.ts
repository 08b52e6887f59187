export {
  ModelClient,
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type ClientStats,
  type ModelClientOptions,
  type Usage,
} from "./client";
export { ModelCallError } from "./errors";
export {
  resolveModelConfig,
  listModelConfigs,
  saveModelSetting,
  deleteModelSetting,
  type ModelConfig,
  type PublicModelConfig,
} from "./config";
export { listCalls, summarizeCalls, recordCall, type Origin, type LedgerCall, type LedgerSummary } from "./ledger";
export { extractJson, checkReply, isWrongLanguage, type ReplyRule } from "./json";
export { LanguageCounter, hasCjk, isOtherLanguage } from "./language";
export type { Lang } from "./types";
export { canonicalJson, hashOf } from "./hash";
