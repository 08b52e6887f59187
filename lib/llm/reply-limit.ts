/**
 * How large a reply's body may be (issue 40.7): a body read into memory, and a compressed body once
 * decoded, are refused past this many bytes. A compressed reply is hostile until decoded: 2 MB of gzip
 * can decode to 2 GB. A chat or embedding reply is far smaller than the limit (32,768 output tokens with
 * top-20 logprobs is about 25 MB of JSON; 64 embeddings of 3,072 dimensions in base64, about 1 MB); a
 * Batch API output file (a GET) may be up to the endpoint's own 200 MB file limit.
 */
import zlib from "node:zlib";

const MiB = 1024 * 1024;
/** Replies to POSTs (chat, embeddings, batch creation). */
export const MAX_REPLY_BYTES = 32 * MiB;
/** Replies to GETs (a batch's output file). */
export const MAX_FILE_BYTES = 256 * MiB;

/** The limit of a request's reply. */
export const replyLimit = (method: string | undefined): number =>
  (method ?? "GET").toUpperCase() === "GET" ? MAX_FILE_BYTES : MAX_REPLY_BYTES;

/** The error of a reply past its limit: said in MiB, with what was refused. */
export function tooLarge(limit: number, what: string): Error {
  return Object.assign(
    new Error(`the endpoint's reply is larger than ${limit / MiB} MiB${what}: refused (a reply that large is not a model reply)`),
    {
      code: "ERR_REPLY_TOO_LARGE",
    },
  );
}

/**
 * A compressed body decoded, at most `limit` bytes of it (we ask for no compression; a server that
 * compresses anyway is decoded, as the global fetch would). zlib stops at maxOutputLength rather than
 * allocating the whole bomb.
 */
export function decoded(body: Buffer, encoding: string | undefined, limit: number): Buffer {
  const o = { maxOutputLength: limit };
  const e = encoding?.trim().toLowerCase();
  try {
    if (e === "gzip" || e === "x-gzip") return zlib.gunzipSync(body, o);
    if (e === "deflate") return zlib.inflateSync(body, o);
    if (e === "br") return zlib.brotliDecompressSync(body, o);
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(limit, ` once decoded (content-encoding ${e})`);
    throw err;
  }
  return body;
}

/** A web stream read whole, refused once it passes `limit` bytes (the global fetch's replies). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const parts: Uint8Array[] = [];
  let n = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    n += value.byteLength;
    if (n > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit, "");
    }
    parts.push(value);
  }
}
