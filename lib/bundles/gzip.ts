/**
 * A bundle may travel gzip-compressed (`--out run.palbundle.gz`): SQLite stores a cached prompt of a few
 * kilobytes one to a page, and the prompts repeat their instructions, so a compressed bundle is several
 * times smaller. Reading one unpacks it to a private temp file first (the gzip magic decides, not the name).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { pipeline } from "node:stream/promises";
import type { Db } from "@/db/client";
import { AppError, ConflictError, InvalidInputError } from "@/lib/errors";
import { exportBundle, type ExportOptions, type ExportResult } from "./export";
import { maxBundleBytes } from "./limits";

export const isGzipName = (file: string) => file.endsWith(".gz");

function isGzip(file: string): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, "r");
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch {
    return false; // a missing file: the check that follows names it
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Compresses `from` into `to` (created 0600). */
export async function gzipFile(from: string, to: string): Promise<void> {
  await pipeline(fs.createReadStream(from), zlib.createGzip({ level: 6 }), fs.createWriteStream(to, { mode: 0o600, flags: "wx" }));
}

class TooLargeError extends Error {
  constructor(limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/**
 * `fn` with a plain SQLite path of the bundle `file`: the file itself, or its unpacked copy (removed after).
 * Unpacking stops past maxBundleBytes() (limits.ts; checkBundle refuses a plain file past it).
 */
export async function withPlainBundle<R>(file: string, fn: (plain: string) => R | Promise<R>): Promise<R> {
  if (!isGzip(file)) return fn(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bundle-gz-"));
  const plain = path.join(dir, path.basename(file).replace(/\.gz$/, "") || "bundle");
  try {
    // A few MB of gzip can unpack to terabytes: stop at the limit, before the disk fills.
    const limit = maxBundleBytes();
    let bytes = 0;
    try {
      await pipeline(
        fs.createReadStream(file),
        zlib.createGunzip(),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const c of chunks) {
            bytes += c.length;
            if (bytes > limit) throw new TooLargeError(limit);
            yield c;
          }
        },
        fs.createWriteStream(plain, { mode: 0o600 }),
      );
    } catch (e) {
      if (e instanceof TooLargeError)
        throw new InvalidInputError(
          `${file} unpacks to more than ${limit} bytes, the most a bundle may be (PAL_BUNDLE_MAX_BYTES): refused, nothing was imported`,
        );
      throw new InvalidInputError(`${file} is not a readable gzip file (${e instanceof Error ? e.message : e})`);
    }
    return await fn(plain);
  } catch (e) {
    // The unpacked copy's path means nothing to the reader: name their file.
    if (e instanceof AppError) e.message = e.message.replaceAll(plain, file);
    throw e;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** exportBundle, gzip-compressed when `out` ends in .gz. */
export async function exportBundleTo(db: Db, id: number, out: string, o: ExportOptions = {}): Promise<ExportResult> {
  if (!isGzipName(out)) return exportBundle(db, id, out, o);
  if (fs.existsSync(out)) throw new ConflictError(`${out} exists already; choose another --out file or remove it first`);
  const dir = fs.mkdtempSync(path.join(path.dirname(path.resolve(out)), ".pal-bundle-"));
  try {
    const r = exportBundle(db, id, path.join(dir, "bundle.db"), o);
    const started = Date.now();
    await gzipFile(r.file, out);
    return { ...r, file: path.resolve(out), bytes: fs.statSync(out).size, ms: r.ms + Date.now() - started };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
