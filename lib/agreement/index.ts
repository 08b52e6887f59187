/** Inter-rater agreement (docs/metrics.md): pure functions; undefined cases give null with a reason. */
export * from "./types";
export * from "./percent";
export * from "./cohen";
export * from "./fleiss";
export * from "./krippendorff";
export * from "./majority";
export * from "./bootstrap";
export * from "./interpret";
export * from "./judge-vs-human";
export * from "./report";
export * from "./tie-margin";
export * from "./annotators";
export * from "./warnings";
export * from "./steps";
