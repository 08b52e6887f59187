/** `pal import locomo <files...>`: reads and checks every file, then writes the data set in one transaction. */
import path from "node:path";
import type { Db } from "@/db/client";
import type { ImportOptions, ImportResult } from "../types";
import { describeSource } from "../source";
import { checkName } from "../replace";
import { writeConvmem } from "../convmem/write";
import { dataCounts } from "../convmem/counts";
import { kindCounts } from "../convmem/stats";
import { expandJsonPaths } from "../convmem/paths";
import { readLocomo } from "./read";

export async function importLocomo(db: Db, opts: ImportOptions): Promise<ImportResult> {
  const name = opts.name?.trim() || defaultName(opts.paths);
  const progress = opts.onProgress ?? (() => {});
  checkName(db, name, "locomo", opts.replace);
  const files = expandJsonPaths(opts.paths);
  progress({ phase: "reading", done: 0, total: files.length, detail: files.map((f) => path.basename(f)).join(", ") });
  const data = readLocomo(files);
  progress({ phase: "validating", done: files.length, total: files.length });
  const stats = kindCounts("locomo", dataCounts(data));
  const report = { counts: stats, warnings: data.warnings };
  const datasetId = writeConvmem(db, data, {
    name,
    kind: "locomo",
    source: describeSource(opts.paths),
    stats,
    report,
    importedBy: opts.importedBy,
    replace: opts.replace,
    onProgress: progress,
  });
  progress({ phase: "done", done: 1, total: 1 });
  return { datasetId, name, kind: "locomo", language: "en", stats, report };
}

function defaultName(paths: string[]): string {
  return (paths[0] ? path.basename(paths[0]).replace(/\.json$/i, "") : "") || "locomo";
}
