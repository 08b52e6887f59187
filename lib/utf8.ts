/**
 * Strict UTF-8 for uploaded and imported files. Node's usual decoding replaces invalid bytes with
 * U+FFFD without a word, so a file saved in another encoding (GBK, Latin-1) would be stored as
 * garbage. Here invalid bytes are an error naming the file and the line: nothing is stored.
 */
import fs from "node:fs";
import { InvalidInputError } from "@/lib/errors";

/** Invalid UTF-8 in a file: 400, naming the file, the line and the byte offset. */
export class InvalidUtf8Error extends InvalidInputError {
  constructor(fileName: string, line: number, offset: number) {
    super(`${fileName}:${line}: not valid UTF-8 (byte ${offset + 1}); save the file as UTF-8 and upload it again`);
  }
}

const strict = () => new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The 0-based offset of the first byte that does not start or continue a valid UTF-8 sequence (RFC 3629). */
function invalidOffset(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // Continuation count and the allowed range of the second byte (no overlongs, surrogates or > U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined) return i;
      if (k === 1 ? x < lo || x > hi : x < 0x80 || x > 0xbf) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/** Line (1-based) and byte offset of the first invalid sequence. Only runs on bad input. */
function firstInvalid(bytes: Uint8Array): { line: number; offset: number } {
  const offset = invalidOffset(bytes);
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return { line, offset };
}

/** The bytes as text (a leading byte-order mark dropped); invalid UTF-8 throws InvalidUtf8Error. */
export function decodeUtf8(bytes: Uint8Array, fileName: string): string {
  try {
    return strict().decode(bytes);
  } catch {
    const at = firstInvalid(bytes);
    throw new InvalidUtf8Error(fileName, at.line, at.offset);
  }
}

/** A file's text, strictly decoded. */
export function readUtf8File(file: string, fileName: string): string {
  return decodeUtf8(fs.readFileSync(file), fileName);
}

/**
 * A file's lines (without the line break, a trailing CR dropped), read in chunks and strictly
 * decoded, with their 1-based numbers: for JSONL files too large to hold at once.
 */
export async function* utf8Lines(file: string, fileName: string): AsyncGenerator<{ line: string; n: number }> {
  let carry: Buffer = Buffer.alloc(0);
  let n = 0;
  let offset = 0; // bytes before `carry`
  const emit = (bytes: Buffer) => {
    n++;
    let text: string;
    try {
      // The decoder drops a leading byte-order mark (of line 1; another line never starts with one).
      text = strict().decode(bytes);
    } catch {
      throw new InvalidUtf8Error(fileName, n, offset + invalidOffset(bytes));
    }
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  };
  for await (const chunk of fs.createReadStream(file)) {
    let buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let nl: number;
    while ((nl = buf.indexOf(0x0a)) >= 0) {
      const line = emit(buf.subarray(0, nl));
      offset += nl + 1;
      buf = buf.subarray(nl + 1);
      yield { line, n };
    }
    carry = Buffer.from(buf);
  }
  if (carry.length) yield { line: emit(carry), n };
}
