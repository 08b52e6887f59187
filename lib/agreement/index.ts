/** Inter-rater agreement (SPEC §3–4): pure functions; undefined cases give null with a reason. */
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
