/**
 * What the app needs to know about one kind of data set. Each kind is one module in this folder
 * (palset.ts, hicupid.ts) and one line in ./index.ts; pages, the import route, the CLI and the
 * importers read these entries instead of branching on the kind.
 */
import type { Db } from "@/db/client";
import type { ImportOptions, ImportResult } from "../types";
import type { Queryable, Tx } from "../writer";

export type DatasetKindDef = {
  /** Stored in datasets.kind and used on the command line (`pal import <id>`). */
  id: string;
  /** For people: "PAL-Set". */
  label: string;
  /** `pal import <id> --help`: what the paths may be. */
  cliDescription: string;
  /** Tailwind classes of the kind's badge in lists. */
  badgeClass: string;
  upload: {
    /** Lower-case file extensions the importer reads, with the dot. */
    extensions: string[];
    /** Largest upload through the web page; larger sets go through `pal import`. */
    maxBytes: number;
    /** Whether the importer takes a language (zh/en) or fixes it itself. */
    languageChoice: boolean;
    /** One line under the file pickers: what to pick. */
    filesHint: string;
  };
  /** Stored counts shown on the data set's page, in order: [stats key, label]. */
  counts: Array<[string, string]>;
  /** The few counts worth a glance in the data-set list. */
  summary: Array<[string, string]>;
  /** The kind's counts, computed from the stored rows. */
  stats(db: Queryable, datasetId: number): Record<string, number>;
  /** The importer, loaded on use (the CLI's other commands need not load it). */
  importer(): Promise<(db: Db, opts: ImportOptions) => Promise<ImportResult>>;
  /**
   * Deletes every row of the kind that belongs to the data set, leaving the datasets row itself:
   * the replace rule keeps the data set's id so that what refers to it survives a re-import.
   */
  clearContents(tx: Tx, datasetId: number): void;
  /** Which browse pages and downloads the kind has. */
  browse: {
    /** Users have sessions (samples) with logs, dialogue and topics. */
    sessions: boolean;
    /** A QA browser (question, personalized and general answers). */
    qa: boolean;
    /** The data set downloads as the published JSON. */
    exportJson: boolean;
  };
};

/** What the import form needs of a kind: sent from the server as props. */
export type UploadKind = { id: string; label: string } & DatasetKindDef["upload"];
