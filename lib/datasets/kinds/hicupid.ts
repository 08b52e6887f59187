import { hicupidStats } from "../hicupid/stats";
import { MAX_UPLOAD_BYTES } from "../upload-limits";
import type { DatasetKindDef } from "./types";
import { KIND_ROWS } from "./rows";

/** HiCUPID: users' dialogue histories and QA pairs with personalized and general answers. */
export const hicupidKind: DatasetKindDef = {
  ...KIND_ROWS.hicupid,
  cliDescription: "import HiCUPID: Hugging Face parquet layout (dialogue/qa configs, train/test_1/test_2) or JSONL rows",
  badgeClass: "bg-teal-50 text-teal-800",
  upload: {
    extensions: [".parquet", ".jsonl", ".ndjson"],
    maxBytes: MAX_UPLOAD_BYTES,
    languageChoice: false,
    filesHint: "the Hugging Face parquet files (dialogue/, qa/ folders) or JSONL rows",
  },
  counts: [
    ["users", "Users"],
    ["dialogues", "Dialogues"],
    ["turns", "Turns"],
    ["qa", "QA items"],
  ],
  summary: [
    ["users", "users"],
    ["dialogues", "dialogues"],
    ["turns", "turns"],
    ["qa", "QA items"],
  ],
  stats: hicupidStats,
  importer: async () => (await import("../hicupid/import")).importHicupid,
  browse: { sessions: false, qa: true, exportJson: false },
};
