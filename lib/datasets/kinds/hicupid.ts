import { eq } from "drizzle-orm";
import { hcUsers } from "@/db/schema";
import { hicupidStats } from "../hicupid/stats";
import { MAX_UPLOAD_BYTES } from "../upload-limits";
import type { DatasetKindDef } from "./types";

/** HiCUPID: users' dialogue histories and QA pairs with personalized and general answers. */
export const hicupidKind: DatasetKindDef = {
  id: "hicupid",
  label: "HiCUPID",
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
  // hc_users cascades to dialogues, turns and QA.
  clearContents: (tx, datasetId) => void tx.delete(hcUsers).where(eq(hcUsers.datasetId, datasetId)).run(),
  browse: { sessions: false, qa: true, exportJson: false },
};
