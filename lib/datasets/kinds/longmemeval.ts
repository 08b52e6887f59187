import { convmemStats, kindCounts } from "../convmem/stats";
import { MAX_UPLOAD_BYTES } from "../upload-limits";
import type { DatasetKindDef } from "./types";
import { KIND_ROWS } from "./rows";

/** LongMemEval (xiaowu0162/LongMemEval): 500 questions, each after its own haystack of timestamped sessions. */
export const longmemevalKind: DatasetKindDef = {
  ...KIND_ROWS.longmemeval,
  cliDescription:
    "import LongMemEval: longmemeval_s_cleaned.json, longmemeval_m_cleaned.json or longmemeval_oracle.json (or the older _s / _m)",
  badgeClass: "bg-rose-50 text-rose-800",
  upload: {
    extensions: [".json"],
    maxBytes: MAX_UPLOAD_BYTES,
    languageChoice: false,
    filesHint:
      "one of longmemeval_s_cleaned.json, longmemeval_m_cleaned.json, longmemeval_oracle.json (or the older longmemeval_s.json, longmemeval_m.json)",
  },
  counts: [
    ["questions", "Questions"],
    ["sessions", "Distinct sessions"],
    ["sessionRefs", "Haystack sessions"],
    ["turns", "Turns"],
    ["qa", "QA items"],
  ],
  summary: [
    ["questions", "questions"],
    ["sessions", "sessions"],
  ],
  stats: (db, id) => kindCounts("longmemeval", convmemStats(db, id)),
  importer: async () => (await import("../longmemeval/import")).importLongMemEval,
  browse: { sessions: false, qa: false, exportJson: false },
};
