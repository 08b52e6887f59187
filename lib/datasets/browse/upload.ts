/**
 * Receiving an import upload: the browser sends one body, `[u32 BE manifest length][manifest JSON]
 * [file 1 bytes][file 2 bytes]...` (a Blob of the picked files, so the browser never holds them in
 * memory and the server streams each one to disk). The manifest names each file (its relative path
 * when a folder was picked) and its size; nothing is trusted: sizes are re-checked while reading,
 * names are sanitised and kept inside the upload directory. A multipart form is accepted too (curl).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import busboy from "busboy";
import { z } from "zod";
import { AppError } from "@/lib/errors";

import { DATASET_KIND_IDS, datasetKind } from "../kinds";
import { MAX_FILES, MAX_UPLOAD_BYTES } from "../upload-limits";

export { MAX_FILES, MAX_UPLOAD_BYTES };
export const UPLOAD_CONTENT_TYPE = "application/x-pal-upload";

export const manifestSchema = z.object({
  kind: z.enum(DATASET_KIND_IDS),
  name: z.string().trim().min(1, "give the data set a name").max(200),
  lang: z.enum(["auto", "zh", "en"]).default("auto"),
  replace: z.boolean().default(false),
  files: z
    .array(z.object({ path: z.string().min(1).max(1000), size: z.number().int().nonnegative() }))
    .min(1, "pick at least one file")
    .max(MAX_FILES),
});
export type UploadManifest = z.infer<typeof manifestSchema>;

/** A refused upload: an HTTP status (400, 413 too large, 415 wrong type) and a one-line reason for the person uploading. */
export class UploadError extends AppError {
  constructor(message: string, status = 400) {
    super(message, status, status === 413 ? "too_large" : status === 415 ? "unsupported_media_type" : "invalid_input");
  }
}

export function fmtMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** `limit`: the kind's limit once the manifest is known; the overall ceiling before that. */
export function checkTotal(bytes: number, limit = MAX_UPLOAD_BYTES): void {
  if (bytes > limit) {
    throw new UploadError(
      `the upload is ${fmtMB(bytes)}; at most ${fmtMB(limit)} in total can be imported at once (use \`npx pal import\` for larger sets)`,
      413,
    );
  }
}

/** One path component made safe: no separators, control or reserved characters, no leading dots. */
function cleanPart(part: string): string {
  const s = part
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[\\/:*?"<>|]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, 120);
  return s;
}

/**
 * A sanitised relative path (at most 4 levels, e.g. `HiCUPID/qa/test_1-00000-of-00001.parquet`), or
 * null when nothing usable is left. Dots-only parts (`..`) are dropped, so it can never leave the
 * upload directory.
 */
export function sanitizeRelativePath(p: string): string | null {
  const parts = p
    .split(/[\\/]+/)
    .map(cleanPart)
    .filter((x) => x !== "");
  if (parts.length === 0) return null;
  return parts.slice(-4).join("/");
}

/** Where each file goes below `dir`: sanitised, unique (a clash gets its own numbered folder). */
export function plannedPaths(dir: string, manifest: UploadManifest): string[] {
  const { label, upload } = datasetKind(manifest.kind);
  const allowed = upload.extensions;
  const taken = new Set<string>();
  return manifest.files.map((f) => {
    const rel = sanitizeRelativePath(f.path);
    if (!rel) throw new UploadError(`"${f.path}": not a usable file name`);
    const ext = path.extname(rel).toLowerCase();
    if (!allowed.includes(ext)) {
      throw new UploadError(`${rel}: a ${label} upload takes ${allowed.join(", ")} files, not "${ext || "no extension"}"`);
    }
    let unique = rel;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = path.posix.join(`copy-${n}`, rel);
    taken.add(unique.toLowerCase());
    const abs = path.resolve(dir, unique);
    if (path.relative(dir, abs).startsWith("..")) throw new UploadError(`"${f.path}": not a usable file name`);
    return abs;
  });
}

export function makeUploadDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "pal-upload-"));
}

/** Reads exactly `n` bytes' worth of chunks from a stream reader, with what was left over. */
class ByteReader {
  private buf: Uint8Array = new Uint8Array(0);
  received = 0;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  private async more(): Promise<boolean> {
    const { done, value } = await this.reader.read();
    if (done) return false;
    this.received += value.byteLength;
    this.buf = this.buf.length ? concat(this.buf, value) : value;
    return true;
  }

  async exactly(n: number): Promise<Uint8Array> {
    while (this.buf.length < n) if (!(await this.more())) throw new UploadError("the upload ended early (connection lost?)");
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Streams the next `n` bytes to `write`, chunk by chunk. */
  async pipe(n: number, write: (chunk: Uint8Array) => Promise<void>): Promise<void> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.more())) throw new UploadError("the upload ended early (connection lost?)");
      const take = Math.min(left, this.buf.length);
      await write(this.buf.subarray(0, take));
      this.buf = this.buf.subarray(take);
      left -= take;
    }
  }

  async atEnd(): Promise<boolean> {
    if (this.buf.length) return false;
    return !(await this.more());
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

async function writeStreamed(file: string, reader: ByteReader, size: number): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fh = await fs.promises.open(file, "wx");
  try {
    await reader.pipe(size, async (chunk) => {
      await fh.write(chunk);
    });
  } finally {
    await fh.close();
  }
}

export type ReceivedUpload = { manifest: UploadManifest; files: string[] };

/** Reads the framed body into `dir`. Throws UploadError for anything malformed or too large. */
export async function receiveFramed(body: ReadableStream<Uint8Array>, dir: string): Promise<ReceivedUpload> {
  const reader = new ByteReader(body.getReader());
  const head = await reader.exactly(4);
  const len = new DataView(head.buffer, head.byteOffset, 4).getUint32(0);
  if (len === 0 || len > 4 * 1024 * 1024) throw new UploadError("malformed upload (bad manifest length)");
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(await reader.exactly(len)));
  } catch {
    throw new UploadError("malformed upload (the manifest is not JSON)");
  }
  const manifest = parseManifest(raw);
  checkTotal(
    manifest.files.reduce((s, f) => s + f.size, 0),
    datasetKind(manifest.kind).upload.maxBytes,
  );
  const files = plannedPaths(dir, manifest);
  for (const [i, f] of manifest.files.entries()) await writeStreamed(files[i], reader, f.size);
  if (!(await reader.atEnd())) throw new UploadError("malformed upload (more bytes than the manifest lists)");
  return { manifest, files };
}

export function parseManifest(raw: unknown): UploadManifest {
  const r = manifestSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new UploadError(`${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
  }
  return r.data;
}

/**
 * The same from a multipart form (fields kind, name, lang, replace and one or more `files`), streamed:
 * each file part goes to disk as it arrives (busboy), so memory stays flat whatever the size. Parts
 * are written under neutral names first because the form's fields may come after its files; once the
 * whole form is read, the manifest is checked and the parts are moved to their sanitised names.
 */
export async function receiveMultipart(req: Request, dir: string): Promise<ReceivedUpload> {
  if (!req.body) throw new UploadError("empty upload");
  const parts = path.join(dir, ".parts");
  fs.mkdirSync(parts);
  const fields = new Map<string, string>();
  const received: { name: string; tmp: string; size: number }[] = [];
  let total = 0;
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: Object.fromEntries(req.headers),
      limits: { files: MAX_FILES, fields: 20, fieldSize: 4096, fileSize: MAX_UPLOAD_BYTES + 1 },
    });
  } catch {
    throw new UploadError("malformed multipart upload (no boundary)");
  }
  const writes: Promise<void>[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => reject(e instanceof UploadError ? e : new UploadError(`malformed multipart upload (${e.message})`));
    bb.on("field", (name, value) => fields.set(name, value));
    bb.on("file", (name, file, info) => {
      if (name !== "files") {
        file.resume(); // not ours: read past it
        return;
      }
      const entry = { name: info.filename || "file", tmp: path.join(parts, String(received.length)), size: 0 };
      received.push(entry);
      const out = fs.createWriteStream(entry.tmp, { flags: "wx" });
      file.on("data", (chunk: Buffer) => {
        entry.size += chunk.length;
        total += chunk.length;
        if (total > MAX_UPLOAD_BYTES) {
          file.unpipe(out);
          out.destroy();
          try {
            checkTotal(total);
          } catch (e) {
            fail(e as Error);
          }
        }
      });
      file.pipe(out);
      writes.push(
        new Promise<void>((res, rej) => {
          out.on("close", res);
          out.on("error", rej);
        }),
      );
    });
    bb.on("filesLimit", () => fail(new UploadError(`at most ${MAX_FILES} files can be uploaded at once`)));
    bb.on("error", (e) => fail(e as Error));
    bb.on("close", () => resolve());
  });
  const input = Readable.fromWeb(req.body as import("node:stream/web").ReadableStream<Uint8Array>);
  input.on("error", (e) => bb.destroy(e));
  input.pipe(bb);
  try {
    await done;
  } finally {
    input.unpipe(bb);
  }
  await Promise.all(writes);
  const manifest = parseManifest({
    kind: fields.get("kind"),
    name: fields.get("name") ?? "",
    lang: fields.get("lang") || "auto",
    replace: ["1", "true", "on"].includes(fields.get("replace") ?? ""),
    files: received.map((f) => ({ path: f.name, size: f.size })),
  });
  checkTotal(total, datasetKind(manifest.kind).upload.maxBytes);
  const files = plannedPaths(dir, manifest);
  for (const [i, f] of received.entries()) {
    fs.mkdirSync(path.dirname(files[i]), { recursive: true });
    fs.renameSync(f.tmp, files[i]);
  }
  fs.rmSync(parts, { recursive: true, force: true });
  return { manifest, files };
}
