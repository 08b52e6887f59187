import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { datasetKind } from "./kinds";

export function findDataset(db: Db, name: string) {
  const ds = db.select().from(datasets).where(eq(datasets.name, name)).get();
  if (!ds) throw new NotFoundError(`no data set named "${name}"`);
  return ds;
}

/** The counts of one data set (see docs/data-formats.md), computed from the stored rows by its kind. */
export function getDatasetStats(db: Db, name: string): Record<string, number> {
  const ds = findDataset(db, name);
  return datasetKind(ds.kind).stats(db, ds.id);
}
