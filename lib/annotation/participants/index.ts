/** Crowd participants: joining from a link, items served as they work, quality checks, finishing. */
export * from "./settings";
export * from "./join";
export * from "./serve";
export * from "./quality";
export * from "./screen";
export * from "./quality-cache";
export * from "./attention";
