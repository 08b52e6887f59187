/**
 * Finding and reading the files of a HiCUPID copy (docs/data-formats.md): the Hugging Face layout
 * `<config>/<split>-00000-of-0000N.parquet` (configs `dialogue`, `qa`, `evaluation`), or the same rows
 * as JSON lines. This module only locates files and yields raw rows; checking them is rows.ts's job.
 */
import fs from "node:fs";
import path from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { DatasetError } from "../types";
import { InvalidUtf8Error, utf8Lines } from "@/lib/utf8";
import { jsonTextTooDeep, tooDeepMessage } from "@/lib/json-depth";

export const HC_CONFIGS = ["dialogue", "qa", "evaluation"] as const;
export type HcConfig = (typeof HC_CONFIGS)[number];

export type HcSource = {
  /** Absolute path. */
  file: string;
  /** How messages name the file: relative to the directory it was found in, e.g. `qa/test_1-00000-of-00001.parquet`. */
  label: string;
  format: "parquet" | "jsonl";
  config: HcConfig;
  /** From the file name; a `split` column, where present, overrides it row by row. */
  split: string;
};

/** One raw row and where it is, for messages: `row 17` (parquet, 1-based) or `line 17` (JSONL). */
export type RawRow = { values: Record<string, unknown>; where: string };

export type FoundSources = {
  /** The dialogue and qa files, in import order: dialogue before qa, splits in their usual order, shards in order. */
  sources: HcSource[];
  /** Files found but not imported (the `evaluation` config), by label. */
  skipped: string[];
};

const EXTENSIONS: Record<string, HcSource["format"]> = { ".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl" };
const SPLIT_ORDER = ["train", "validation", "dev", "test", "test_1", "test_2"];
const KNOWN_SPLIT = "test_1|test_2|train|validation|valid|dev|test";

/**
 * The split a file holds, from its name: HF shards are `<split>-00000-of-00002[-<hash>].parquet`;
 * looser names are accepted when they start or end with a known split (`test_1.jsonl`, `qa_test_1.jsonl`).
 * Anything else: the name itself (without shard suffix and extension) is taken as the split.
 */
export function splitFromFileName(name: string): string {
  const stem = name.replace(/\.(parquet|jsonl|ndjson)$/i, "").replace(/-\d+-of-\d+(-[0-9a-f]+)?$/i, "");
  const head = new RegExp(`^(${KNOWN_SPLIT})(?=$|[-_.])`).exec(stem);
  if (head) return head[1];
  const tail = new RegExp(`(?:^|[-_.])(${KNOWN_SPLIT})$`).exec(stem);
  return tail ? tail[1] : stem;
}

/** Expands the given files and directories into the files to import. */
export async function findSources(paths: string[]): Promise<FoundSources> {
  if (paths.length === 0) throw new DatasetError("no files or directories given");
  const seen = new Set<string>();
  const found: HcSource[] = [];
  const skipped: string[] = [];
  for (const given of paths) {
    const abs = path.resolve(given);
    if (!fs.existsSync(abs)) throw new DatasetError(`${given}: no such file or directory`);
    const entries = fs.statSync(abs).isDirectory() ? listDataFiles(abs) : [explicitFile(abs, given)];
    for (const e of entries) {
      if (seen.has(e.file)) continue;
      seen.add(e.file);
      const config = e.config ?? (await configFromColumns(e));
      if (config === "evaluation") skipped.push(e.label);
      else found.push({ ...e, config, split: splitFromFileName(path.basename(e.file)) });
    }
  }
  if (found.length === 0) throw new DatasetError(`${paths.join(", ")}: no dialogue or qa files (.parquet or .jsonl) found`);
  return { sources: found.sort(compareSources), skipped };
}

type Candidate = Omit<HcSource, "config" | "split"> & { config: HcConfig | null };

/** Data files below a directory; the config comes from a directory name on the way (or the directory itself). */
function listDataFiles(root: string): Candidate[] {
  const out: Candidate[] = [];
  const rootConfig = asConfig(path.basename(root));
  const walk = (dir: string, config: HcConfig | null) => {
    for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (ent.name.startsWith(".")) continue; // .git, .cache, .gitattributes
      const full = path.join(dir, ent.name);
      // The hub's download cache links files (and sometimes folders) into its snapshot tree.
      const isDir = ent.isDirectory() || (ent.isSymbolicLink() && fs.statSync(full, { throwIfNoEntry: false })?.isDirectory());
      if (isDir) walk(full, asConfig(ent.name) ?? config);
      else {
        const format = EXTENSIONS[path.extname(ent.name).toLowerCase()];
        // README.md, LICENSE and the like sit beside the data: ignored, not an error.
        if (format) out.push({ file: full, label: path.relative(root, full).split(path.sep).join("/"), format, config });
      }
    }
  };
  walk(root, rootConfig);
  return out;
}

function explicitFile(abs: string, given: string): Candidate {
  const format = EXTENSIONS[path.extname(abs).toLowerCase()];
  if (!format) throw new DatasetError(`${given}: not a .parquet or .jsonl file`);
  const parent = path.basename(path.dirname(abs));
  const config = asConfig(parent);
  return { file: abs, label: config ? `${parent}/${path.basename(abs)}` : path.basename(abs), format, config };
}

function asConfig(name: string): HcConfig | null {
  return (HC_CONFIGS as readonly string[]).includes(name) ? (name as HcConfig) : null;
}

/** A file outside a config directory: its columns tell (qa rows have a question, dialogue rows a user and assistant turn). */
async function configFromColumns(c: Candidate): Promise<HcConfig> {
  const cols = await columnNames(c);
  if (cols.includes("question")) return "qa";
  if (cols.includes("user") && cols.includes("assistant")) return "dialogue";
  throw new DatasetError(
    `${c.label}: cannot tell whether it holds dialogue or qa rows: put it in a dialogue/ or qa/ directory, or give it a "question" column (qa) or "user" and "assistant" columns (dialogue)`,
  );
}

async function columnNames(c: Candidate): Promise<string[]> {
  if (c.format === "parquet") {
    const meta = await parquetMetadataAsync(await openParquet(c));
    return parquetSchema(meta).children.map((ch) => ch.element.name);
  }
  for await (const chunk of readJsonl(c, 1)) return chunk.length ? Object.keys(chunk[0].values) : [];
  return [];
}

function compareSources(a: HcSource, b: HcSource): number {
  const rank = (s: string) => (SPLIT_ORDER.includes(s) ? SPLIT_ORDER.indexOf(s) : SPLIT_ORDER.length);
  return (
    HC_CONFIGS.indexOf(a.config) - HC_CONFIGS.indexOf(b.config) ||
    rank(a.split) - rank(b.split) ||
    a.split.localeCompare(b.split) ||
    a.label.localeCompare(b.label)
  );
}

/** The rows of one file, in file order, a chunk at a time (a parquet row group, or `chunkSize` JSON lines). */
export function readRows(src: Pick<HcSource, "file" | "label" | "format">, chunkSize = 5000): AsyncGenerator<RawRow[]> {
  return src.format === "parquet" ? readParquet(src) : readJsonl(src, chunkSize);
}

async function openParquet(src: Pick<HcSource, "file" | "label">) {
  try {
    return await asyncBufferFromFile(src.file);
  } catch (e) {
    throw new DatasetError(`${src.label}: cannot open (${(e as Error).message})`);
  }
}

async function* readParquet(src: Pick<HcSource, "file" | "label">): AsyncGenerator<RawRow[]> {
  const file = await openParquet(src);
  let metadata;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw new DatasetError(`${src.label}: not a readable parquet file (${(e as Error).message})`);
  }
  // Row group by row group, so a large split is never decoded in one piece.
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    let rows;
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end });
    } catch (e) {
      throw new DatasetError(`${src.label}: rows ${start + 1}-${end}: cannot decode (${(e as Error).message})`);
    }
    const first = start;
    yield rows.map((values, i) => ({ values, where: `row ${first + i + 1}` }));
    start = end;
  }
}

async function* readJsonl(src: Pick<HcSource, "file" | "label">, chunkSize: number): AsyncGenerator<RawRow[]> {
  let chunk: RawRow[] = [];
  // Strictly decoded: invalid UTF-8 is refused with the file and line (lib/utf8), never replaced.
  const lines = utf8Lines(src.file, src.label);
  try {
    for await (const { line, n } of lines) {
      if (!line.trim()) continue;
      const deep = jsonTextTooDeep(line);
      if (deep) throw new DatasetError(tooDeepMessage(`${src.label}: line ${n}`, deep));
      let values: unknown;
      try {
        values = JSON.parse(line);
      } catch (e) {
        throw new DatasetError(`${src.label}: line ${n}: invalid JSON (${(e as Error).message})`);
      }
      if (!values || typeof values !== "object" || Array.isArray(values)) {
        throw new DatasetError(`${src.label}: line ${n}: expected a JSON object per line`);
      }
      chunk.push({ values: values as Record<string, unknown>, where: `line ${n}` });
      if (chunk.length >= chunkSize) {
        yield chunk;
        chunk = [];
      }
    }
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new DatasetError(e.message);
    throw e;
  } finally {
    await lines.return(undefined);
  }
  if (chunk.length) yield chunk;
}
