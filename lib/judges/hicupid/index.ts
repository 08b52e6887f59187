/** HiCUPID's two judges (A/B/Tie and schedule YES/NO) and what they share. */
export * from "./shared";
export * from "./ab";
export * from "./schedule";
