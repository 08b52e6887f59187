import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { importPalset } from "@/lib/datasets/palset/import";
import { PALSET_EN } from "./fixtures";

/** Imports the English demo PAL-Set's JSON files (not its per-user profile folder) as "en"; returns its id. */
export async function importDemoPalsetEn(db: Db): Promise<number> {
  const files = fs
    .readdirSync(PALSET_EN)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(PALSET_EN, f));
  await importPalset(db, { paths: files, name: "en", lang: "en" });
  return db.select().from(datasets).get()!.id;
}
