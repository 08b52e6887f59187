/**
 * The one replace rule of every importer. A data set's row is its identity: experiments, memories
 * and campaigns refer to its id. Replacing a data set therefore keeps the row (id and name), empties
 * it of its kind's rows and takes the new contents, all inside the import's transaction; a failed
 * import leaves the old contents as they were. A data set of another kind is never replaced: the
 * rows that refer to it were made for that kind.
 */
import { eq } from "drizzle-orm";
import { datasets, experiments } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { checkDisplayName } from "@/lib/display-name";
import { kindRows } from "./kinds/rows";
import type { Queryable, Tx } from "./writer";

export type DatasetValues = {
  language: string | null;
  source: string | null;
  importedBy?: number | null;
  stats?: Record<string, number> | null;
  report?: unknown;
};

/**
 * Refuses a name that is not one line of visible text (at most 200 characters), or one that is taken, unless `replace` is set and the data set is of the same kind.
 * Importers call it before reading anything (fail fast) and `claimDataset` again when writing.
 */
export function checkName(db: Queryable, name: string, kind: string, replace?: boolean): { id: number } | null {
  checkDisplayName("name", name);
  const found = db.select({ id: datasets.id, kind: datasets.kind }).from(datasets).where(eq(datasets.name, name)).get();
  if (!found) return null;
  if (!replace) throw new ConflictError(`a data set named "${name}" already exists (use --replace to replace it)`);
  if (found.kind !== kind) {
    throw new ConflictError(`"${name}" is a ${kindRows(found.kind).label} data set; a ${kindRows(kind).label} import does not replace it`);
  }
  // An experiment's results stand on the data it ran on: that data set is never replaced under it.
  const used = db.select({ id: experiments.id }).from(experiments).where(eq(experiments.datasetId, found.id)).get();
  if (used)
    throw new ConflictError(
      `"${name}" is used by experiment ${used.id}; import under another name (an experiment's data set is not replaced)`,
    );
  return { id: found.id };
}

/**
 * Inside the import's transaction: the id to write the data set's rows under. A new name gets a new
 * row; with `replace`, the existing row keeps its id and name, loses its old rows and gets `values`.
 */
export function claimDataset(tx: Tx, name: string, kind: string, values: DatasetValues, replace?: boolean): number {
  const found = checkName(tx, name, kind, replace);
  const row = { importedBy: null, stats: null, report: null, ...values };
  if (!found)
    return tx
      .insert(datasets)
      .values({ name, kind, ...row })
      .returning({ id: datasets.id })
      .get().id;
  kindRows(kind).clearContents(tx, found.id);
  tx.update(datasets).set(row).where(eq(datasets.id, found.id)).run();
  return found.id;
}
