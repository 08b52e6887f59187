/**
 * `pal import hicupid`: reads a HiCUPID copy (HF parquet layout or JSONL), checks every row, then
 * writes it in one transaction. Reading streams (a parquet row group or a few thousand lines at a
 * time); the checked rows are held column-wise until the write, so nothing is written unless all
 * files are valid.
 */
import { describeSource } from "../source";
import path from "node:path";
import type { Db } from "@/db/client";
import type { ImportOptions, ImportResult } from "../types";
import { HicupidCollector } from "./collect";
import { findSources, readRows } from "./read";
import { toQaRow, toTurnRow } from "./rows";
import { writeHicupid } from "./write";
import { checkName } from "../replace";

export async function importHicupid(db: Db, opts: ImportOptions): Promise<ImportResult> {
  const name = opts.name?.trim() || defaultName(opts.paths);
  const progress = opts.onProgress ?? (() => {});
  // Fail fast on a taken name, before reading anything; checked again when writing.
  checkName(db, name, "hicupid", opts.replace);

  const { sources, skipped } = await findSources(opts.paths);
  const collector = new HicupidCollector();
  collector.skip(skipped);
  for (const [i, src] of sources.entries()) {
    let rows = 0;
    progress({ phase: "reading", done: i, total: sources.length, detail: src.label });
    for await (const chunk of readRows(src)) {
      if (src.config === "dialogue") for (const raw of chunk) collector.addTurn(toTurnRow(raw, src), src.label, raw.where);
      else for (const raw of chunk) collector.addQa(toQaRow(raw, src), src.label, raw.where);
      rows += chunk.length;
      progress({ phase: "reading", done: i, total: sources.length, detail: `${src.label}: ${rows} rows` });
    }
  }
  progress({ phase: "validating", done: sources.length, total: sources.length });
  const data = collector.finish();

  const datasetId = writeHicupid(db, data, {
    name,
    source: describeSource(opts.paths),
    importedBy: opts.importedBy,
    replace: opts.replace,
    onProgress: progress,
  });
  progress({ phase: "done", done: 1, total: 1 });
  return { datasetId, name, kind: "hicupid", language: "en", stats: data.stats, report: data.report };
}

/** Without --name: the first path's base name (`HiCUPID` for a downloaded hub folder). */
function defaultName(paths: string[]): string {
  const first = paths[0] ? path.basename(path.resolve(paths[0])) : "";
  return first.replace(/\.(parquet|jsonl|ndjson)$/i, "") || "hicupid";
}
