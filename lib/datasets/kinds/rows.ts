/**
 * Each kind's name and the rows it owns: what the replace rule (../replace.ts) needs. Kept apart
 * from the kind modules because their importers use the replace rule (an import cycle otherwise);
 * each kind module spreads its entry, so a kind is still defined once.
 */
import { eq } from "drizzle-orm";
import { cmSessions, cmThreads, hcUsers, palUsers } from "@/db/schema";
import type { DatasetKindDef } from "./types";

type KindRows = Pick<DatasetKindDef, "id" | "label" | "clearContents">;

export const KIND_ROWS = {
  palset: {
    id: "palset",
    label: "PAL-Set",
    // pal_users cascades to samples, logs, turns, topics, candidates and requirement types.
    clearContents: (tx, datasetId) => void tx.delete(palUsers).where(eq(palUsers.datasetId, datasetId)).run(),
  },
  hicupid: {
    id: "hicupid",
    label: "HiCUPID",
    // hc_users cascades to dialogues, turns and QA.
    clearContents: (tx, datasetId) => void tx.delete(hcUsers).where(eq(hcUsers.datasetId, datasetId)).run(),
  },
  locomo: { id: "locomo", label: "LoCoMo", clearContents: (tx, datasetId) => clearConvmem(tx, datasetId) },
  longmemeval: { id: "longmemeval", label: "LongMemEval", clearContents: (tx, datasetId) => clearConvmem(tx, datasetId) },
} satisfies Record<string, KindRows>;

/** LoCoMo and LongMemEval share the cm_ tables: threads cascade to timeline and QA, sessions to turns. */
function clearConvmem(tx: Parameters<KindRows["clearContents"]>[0], datasetId: number): void {
  tx.delete(cmThreads).where(eq(cmThreads.datasetId, datasetId)).run();
  tx.delete(cmSessions).where(eq(cmSessions.datasetId, datasetId)).run();
}

/** The kind's entry; an id this version does not know keeps its id as label and owns no rows here. */
export function kindRows(id: string): KindRows {
  return (KIND_ROWS as Record<string, KindRows>)[id] ?? { id, label: id, clearContents: () => {} };
}
