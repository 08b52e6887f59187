/** Human annotation: campaigns, sampling, assignment, the blinded queue, judges, agreement per campaign. */
export * from "./kinds";
export * from "./campaigns";
export * from "./queue";
export * from "./agreement";
export * from "./verdict-import";
export * from "./item-view";
export * from "./export";
export { PAPER_SAMPLE } from "./sampling";
export * from "./items-overview";
export * from "./rating-vs-judge";
