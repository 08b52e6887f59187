export * from "./auth";
export * from "./datasets";
export * from "./palset";
export * from "./hicupid";
export * from "./llm";
export * from "./experiments";
export * from "./memory";
export * from "./annotation";
