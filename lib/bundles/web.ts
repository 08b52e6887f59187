/**
 * Bundles over HTTP: the experiment page's "Download bundle" (written to a private temp file, read back,
 * removed) and the Experiments page's import (the uploaded file streamed to a temp file under a size
 * limit, then imported as the CLI does).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db } from "@/db/client";
import { AppError, InvalidInputError } from "@/lib/errors";
import { MAX_UPLOAD_BYTES } from "@/lib/datasets/upload-limits";
import { exportBundle } from "./export";
import { importBundle, type ImportResult } from "./import";
import { withPlainBundle } from "./gzip";

/** The upload's media type (POST /api/experiments/bundle). */
export const BUNDLE_MEDIA_TYPE = "application/vnd.pal-bundle";

export function bundleDownload(db: Db, id: number, withData: boolean): { body: Buffer; filename: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bundle-"));
  try {
    const file = path.join(dir, `experiment-${id}.palbundle`);
    exportBundle(db, id, file, { withData });
    return { body: fs.readFileSync(file), filename: path.basename(file) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A bundle too large for the web import (the CLI has no limit). */
class BundleTooLargeError extends AppError {
  constructor() {
    super(
      `the bundle is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; import it with \`npx pal bundle import FILE\``,
      413,
      "too_large",
    );
  }
}

/** Imports an uploaded bundle (the request body is the file) as `user`. */
export async function importUploadedBundle(
  db: Db,
  body: ReadableStream<Uint8Array> | null,
  name: string,
  userId: number,
): Promise<ImportResult> {
  if (!body) throw new InvalidInputError("empty upload: send the bundle file as the request body");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bundle-up-"));
  const file = path.join(dir, "upload.palbundle");
  try {
    let bytes = 0;
    await pipeline(
      Readable.fromWeb(body as never),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const c of chunks) {
          bytes += c.length;
          if (bytes > MAX_UPLOAD_BYTES) throw new BundleTooLargeError();
          yield c;
        }
      },
      fs.createWriteStream(file, { mode: 0o600 }),
    );
    if (bytes === 0) throw new InvalidInputError("empty upload: send the bundle file as the request body");
    const source =
      path
        .basename(name)
        .replace(/[\u0000-\u001f]/g, "")
        .slice(0, 200) || "upload";
    try {
      return await withPlainBundle(file, (plain) => importBundle(db, plain, { source, importedBy: userId }));
    } catch (e) {
      // The temp file's path means nothing to the person uploading: name their file instead.
      if (e instanceof AppError) e.message = e.message.replaceAll(file, source);
      throw e;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
