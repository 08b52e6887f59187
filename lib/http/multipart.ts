/**
 * A multipart form with one uploaded file, read as a stream (busboy) rather than with
 * `Request.formData()`: the size limit is enforced while the body arrives (a too-large file is
 * refused at the limit, not after it was all received), and the file's bytes are kept as bytes, so
 * they can be decoded strictly (see lib/utf8.ts) instead of having invalid UTF-8 replaced.
 *
 * The routes that use it are left out of proxy.ts's matcher: when the proxy runs, Next buffers the
 * body for it and cuts it at 10 MB.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError, InvalidInputError } from "@/lib/errors";
import { PayloadTooLargeError } from "./body";

export interface ReceivedFile {
  /** The file name the browser sent (no directories). */
  name: string;
  bytes: Buffer;
}

/** The text fields of the form (a field may repeat) and its one file, if any. */
export class ReceivedForm {
  constructor(
    private readonly fields: Map<string, string[]>,
    readonly file: ReceivedFile | null,
  ) {}
  get(name: string): string | null {
    return this.fields.get(name)?.[0] ?? null;
  }
  getAll(name: string): string[] {
    return this.fields.get(name) ?? [];
  }
}

export interface MultipartLimits {
  /** The name of the file field; other file fields are read past and ignored. */
  fileField: string;
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** What the file is, for the message: "a campaign file". */
  what: string;
  /** Largest text field (default 1 MB: guidelines in Markdown). */
  maxFieldBytes?: number;
}

const MB = 1024 * 1024;

/** Reads a multipart/form-data request; a malformed form is a 400, a too-large file or field a 413. */
export async function readMultipartForm(req: Request, limits: MultipartLimits): Promise<ReceivedForm> {
  const maxField = limits.maxFieldBytes ?? MB;
  const tooLarge = () =>
    new PayloadTooLargeError(
      `${limits.what} is limited to ${Math.round(limits.maxFileBytes / MB)} MB (use the command line for larger files)`,
    );
  const declared = Number(req.headers.get("content-length") ?? "");
  // A first check on the declared size (the form's other fields add little), before anything is read.
  if (Number.isFinite(declared) && declared > limits.maxFileBytes + 2 * maxField + MB) throw tooLarge();
  if (!req.body) throw new InvalidInputError("expected a multipart form (the body is empty)");
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: Object.fromEntries(req.headers),
      limits: { files: 1, fields: 500, fieldSize: maxField, fileSize: limits.maxFileBytes },
    });
  } catch {
    throw new InvalidInputError("expected a multipart form (no boundary)");
  }
  const fields = new Map<string, string[]>();
  let file: ReceivedFile | null = null;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => reject(e instanceof AppError ? e : new InvalidInputError(`malformed multipart form (${e.message})`));
    bb.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new PayloadTooLargeError(`field "${name}" is limited to ${Math.round(maxField / 1024)} KB`));
      else fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    bb.on("file", (name, stream, info) => {
      if (name !== limits.fileField || file) {
        stream.resume(); // not ours: read past it
        return;
      }
      const chunks: Buffer[] = [];
      const entry: ReceivedFile = { name: info.filename || "upload", bytes: Buffer.alloc(0) };
      file = entry;
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => fail(tooLarge()));
      stream.on("end", () => {
        entry.bytes = Buffer.concat(chunks);
      });
    });
    bb.on("fieldsLimit", () => fail(new InvalidInputError("the form has too many fields")));
    bb.on("error", (e) => fail(e as Error));
    bb.on("close", () => resolve());
  });
  const input = Readable.fromWeb(req.body as NodeReadableStream<Uint8Array>);
  input.on("error", (e) => bb.destroy(e));
  input.pipe(bb);
  try {
    await done;
  } finally {
    input.unpipe(bb);
  }
  return new ReceivedForm(fields, file);
}
