/** Shared shapes of the data-set importers (PAL-Set, HiCUPID). */
import { InvalidInputError } from "@/lib/errors";

export type ImportProgress = {
  /** e.g. "reading", "validating", "writing", "done" */
  phase: string;
  done: number;
  total: number;
  /** What is being worked on, e.g. a file name or user id. */
  detail?: string;
};

export type ImportOptions = {
  /** Files and/or directories, as given on the command line or uploaded. */
  paths: string[];
  /** Data-set name; defaults are the importer's business (e.g. derived from the directory). */
  name?: string;
  /** PAL-Set only: detected from the text when not given. */
  lang?: "zh" | "en";
  /** Replace an existing data set of the same name (otherwise refused). */
  replace?: boolean;
  importedBy?: number;
  onProgress?: (p: ImportProgress) => void;
};

export type QualityWarning = {
  code: string; // e.g. "mixed-language", "unknown-action", "candidates-missing-solution", "empty-string"
  message: string;
  count: number;
  examples: string[]; // at most a few, each naming where (user/sample/json path)
};

export type QualityReport = {
  counts: Record<string, number>;
  warnings: QualityWarning[];
  /** Profile-file keys or columns that were not recognised and kept as they were. */
  unrecognised?: string[];
};

export type ImportResult = {
  datasetId: number;
  name: string;
  /** A kind id of lib/datasets/kinds. */
  kind: string;
  language: string | null;
  stats: Record<string, number>;
  report: QualityReport;
};

/**
 * A refused input (400; exit code 1 in the CLI). The message names the file, the record and the JSON
 * path of the field and what was expected, e.g.
 * `0003.json: 0003.history[1].logs[5].timestamp: "yesterday" is not a timestamp`.
 */
export class DatasetError extends InvalidInputError {}
