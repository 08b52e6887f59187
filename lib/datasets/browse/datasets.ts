/**
 * Data-set look-ups the browse pages need beside the PAL-Set and HiCUPID query modules: one data set
 * by its id (the URL segment), or null so the page can answer 404.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";

export type DatasetRow = typeof datasets.$inferSelect;

export function getDataset(db: Db, id: number): DatasetRow | null {
  return db.select().from(datasets).where(eq(datasets.id, id)).get() ?? null;
}
