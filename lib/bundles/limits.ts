/**
 * Every bound on reading a bundle, in one place (docs/security.md, "Bundles", explains each). A bundle
 * is a stranger's file: its unpacked size, the rows of each table, the size of one value, one cached
 * replies' chunk once inflated, and the web import's run time and count are all capped, so no file can
 * make an import fill the disk, the memory or the write lock.
 */
import { envNumber, type Env } from "@/lib/config";

/** A bundle's largest size once unpacked (a .gz is stopped as soon as it passes it); PAL_BUNDLE_MAX_BYTES. */
export const maxBundleBytes = (env: Env = process.env) => envNumber("PAL_BUNDLE_MAX_BYTES", 2 * 1024 ** 3, env);

/** The longest a web import runs before its process is stopped (nothing is written); PAL_BUNDLE_TIMEOUT_S. */
export const importTimeoutMs = (env: Env = process.env) => envNumber("PAL_BUNDLE_TIMEOUT_S", 1800, env) * 1000;

export const BUNDLE_LIMITS = {
  /** Rows of any one table (a real run's ledger holds some hundred thousand). */
  tableRows: 5_000_000,
  /** Bytes of one value (a job's output, a memory entry, a prompt: kilobytes to a few hundred). */
  valueBytes: 16 * 1024 * 1024,
  /** Characters of a name (an experiment's, a data set's, a mark author's). */
  nameChars: 500,
  /** Bytes of one chunk of cached replies once inflated (export writes about 1 MB of replies to a chunk). */
  chunkBytes: 64 * 1024 * 1024,
  /** Web imports running at once (each is a process of its own); one more is refused until one ends. */
  webImports: 2,
  /** Web verifies running at once (each replays a run with its own workers); one more is refused until one ends. */
  webVerifies: 2,
} as const;
