import { count, eq } from "drizzle-orm";
import type { Queryable } from "../writer";
import { hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";

/** The counts of a HiCUPID data set (docs/data-formats.md), counted from the stored rows (not the import's record). */
export function hicupidStats(db: Queryable, datasetId: number): Record<string, number> {
  const n = (q: { get(): { n: number } | undefined }) => q.get()?.n ?? 0;
  return {
    users: n(db.select({ n: count() }).from(hcUsers).where(eq(hcUsers.datasetId, datasetId))),
    dialogues: n(db.select({ n: count() }).from(hcDialogues).where(eq(hcDialogues.datasetId, datasetId))),
    turns: n(
      db
        .select({ n: count() })
        .from(hcTurns)
        .innerJoin(hcDialogues, eq(hcTurns.dialogueId, hcDialogues.id))
        .where(eq(hcDialogues.datasetId, datasetId)),
    ),
    qa: n(db.select({ n: count() }).from(hcQa).where(eq(hcQa.datasetId, datasetId))),
  };
}
