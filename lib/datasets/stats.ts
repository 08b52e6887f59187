import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { palsetStats } from "./palset/stats";
import { hicupidStats } from "./hicupid/stats";
import { NotFoundError } from "@/lib/errors";

export function findDataset(db: Db, name: string) {
  const ds = db.select().from(datasets).where(eq(datasets.name, name)).get();
  if (!ds) throw new NotFoundError(`no data set named "${name}"`);
  return ds;
}

/** SPEC §4 counts of one data set, computed from the stored rows. */
export function getDatasetStats(db: Db, name: string): Record<string, number> {
  const ds = findDataset(db, name);
  return ds.kind === "palset" ? palsetStats(db, ds.id) : hicupidStats(db, ds.id);
}
