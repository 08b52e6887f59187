/** The papers' scores as pure functions (docs/metrics.md). No model calls, no I/O beyond jieba's dictionary. */
export * from "./bleu";
export { segment, isBlankToken, type SegmentOptions } from "./segment";
export { fsum } from "./fsum";
export * from "./hicupid-bleu";
export * from "./rouge";
export * from "./gscore";
export * from "./selection";
export * from "./faireval";
export * from "./hicupid-score";
export { crExp, crLog } from "./crmath";
export * from "./locomo";
