/**
 * The evidence panel of the compare view for the benchmark tasks (issue 42 item 6): the item's evidence turns
 * with the shown methods whose retrieved context held each (lib/tasks/convqa/evidence-view.ts). Null for the
 * other tasks.
 */
import type { Db } from "@/db/client";
import { evidenceView, type EvidenceView } from "@/lib/tasks/convqa/evidence-view";
import { getExperimentRow } from "./control";
import type { ItemView } from "./item-view";

export type { EvidenceView };

export function itemEvidence(db: Db, view: Pick<ItemView, "experimentId" | "task" | "itemKey" | "outputs">): EvidenceView | null {
  if (view.task !== "locomo" && view.task !== "longmemeval") return null;
  const e = getExperimentRow(db, view.experimentId);
  const byMethod = Object.fromEntries(view.outputs.map((o) => [o.method, o.retrieved.flatMap((s) => s.entries)]));
  return evidenceView(db, e.datasetId, view.itemKey, byMethod);
}
