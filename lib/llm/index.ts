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
export { extractJson, checkReply, isWrongLanguage } from "./json";
export { canonicalJson, hashOf } from "./hash";
