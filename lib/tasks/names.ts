/** The task names every part of the project uses (CLI, config, registry). */
export const TASK_NAMES = ["requirement", "solution", "dialogue", "hicupid", "locomo", "longmemeval"] as const;
export type TaskName = (typeof TASK_NAMES)[number];
