import { palsetStats } from "../palset/stats";
import { MAX_UPLOAD_BYTES } from "../upload-limits";
import type { DatasetKindDef } from "./types";
import { KIND_ROWS } from "./rows";

/** PAL-Set (Mem-PAL): users with history/query sessions of logs, dialogue and topics, plus profile files. */
export const palsetKind: DatasetKindDef = {
  ...KIND_ROWS.palset,
  cliDescription: "import PAL-Set: one input.json, a directory of per-user files, or a list of files (+ profile files)",
  badgeClass: "bg-indigo-50 text-indigo-800",
  upload: {
    extensions: [".json"],
    maxBytes: MAX_UPLOAD_BYTES,
    languageChoice: true,
    filesHint: "input.json or per-user <id>.json files, plus profile files (background, requirement, preference, situation, …)",
  },
  counts: [
    ["users", "Users"],
    ["samples", "Sessions"],
    ["logs", "Logs"],
    ["turns", "Turns"],
    ["topics", "Topics"],
    ["candidateSolutions", "Candidates"],
  ],
  summary: [
    ["users", "users"],
    ["samples", "sessions"],
    ["logs", "logs"],
    ["turns", "turns"],
    ["topics", "topics"],
  ],
  stats: palsetStats,
  importer: async () => (await import("../palset/import")).importPalset,
  browse: { sessions: true, qa: false, exportJson: true },
};
