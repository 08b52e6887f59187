import { convmemStats, kindCounts } from "../convmem/stats";
import { MAX_LOCOMO_BYTES } from "../locomo/read";
import type { DatasetKindDef } from "./types";
import { KIND_ROWS } from "./rows";

/** LoCoMo (snap-research/locomo): two-speaker conversations of up to ~35 sessions, with QA in five categories. */
export const locomoKind: DatasetKindDef = {
  ...KIND_ROWS.locomo,
  cliDescription: "import LoCoMo: locomo10.json (the list of conversations) or per-conversation JSON files",
  badgeClass: "bg-amber-50 text-amber-800",
  upload: {
    extensions: [".json"],
    // Refused before the upload: the importer reads no more (../locomo/read.ts).
    maxBytes: MAX_LOCOMO_BYTES,
    languageChoice: false,
    filesHint: "locomo10.json (from data/locomo10.zip) or per-conversation files",
  },
  counts: [
    ["conversations", "Conversations"],
    ["sessions", "Sessions"],
    ["turns", "Turns"],
    ["qa", "QA items"],
  ],
  summary: [
    ["conversations", "conversations"],
    ["qa", "QA items"],
  ],
  stats: (db, id) => kindCounts("locomo", convmemStats(db, id)),
  importer: async () => (await import("../locomo/import")).importLocomo,
  browse: { sessions: false, qa: false, exportJson: false },
};
