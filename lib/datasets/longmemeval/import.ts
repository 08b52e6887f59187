/** `pal import longmemeval <file>`: reads and checks the file, then writes the data set in one transaction. */
import path from "node:path";
import type { Db } from "@/db/client";
import { DatasetError, type ImportOptions, type ImportResult } from "../types";
import { describeSource } from "../source";
import { checkName } from "../replace";
import { writeConvmem } from "../convmem/write";
import { dataCounts } from "../convmem/counts";
import { kindCounts } from "../convmem/stats";
import { readLongMemEval } from "./read";

export async function importLongMemEval(db: Db, opts: ImportOptions): Promise<ImportResult> {
  if (opts.paths.length !== 1)
    throw new DatasetError(`a LongMemEval import takes one file (longmemeval_s.json, _m or _oracle), got ${opts.paths.length}`);
  const file = opts.paths[0];
  const name = opts.name?.trim() || path.basename(file).replace(/\.json$/i, "") || "longmemeval";
  const progress = opts.onProgress ?? (() => {});
  checkName(db, name, "longmemeval", opts.replace);
  progress({ phase: "reading", done: 0, total: 1, detail: path.basename(file) });
  const data = readLongMemEval(file);
  progress({ phase: "validating", done: 1, total: 1, detail: `${data.qa.length} questions, ${data.sessions.length} distinct sessions` });
  const stats = kindCounts("longmemeval", dataCounts(data));
  const report = { counts: stats, warnings: data.warnings };
  const datasetId = writeConvmem(db, data, {
    name,
    kind: "longmemeval",
    source: describeSource(opts.paths),
    stats,
    report,
    importedBy: opts.importedBy,
    replace: opts.replace,
    onProgress: progress,
  });
  progress({ phase: "done", done: 1, total: 1 });
  return { datasetId, name, kind: "longmemeval", language: "en", stats, report };
}
