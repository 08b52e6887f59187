/**
 * The elements of a JSON file that is one top-level array, one at a time, read in chunks: a LongMemEval M
 * file (~2.7 GB) never sits in memory whole, only the element being read (one question, a few MB). The
 * splitter tracks strings, escapes and nesting on the bytes (JSON's structural characters are ASCII, so
 * UTF-8 needs no decoding until an element is complete); each element is then JSON.parsed on its own.
 */
import fs from "node:fs";
import { DatasetError } from "../types";
import { findJsonError } from "../palset/json-error";
import { jsonTextTooDeep, MAX_JSON_DEPTH, tooDeepMessage } from "@/lib/json-depth";

const CHUNK = 8 << 20;

/**
 * The largest one element may be: a LongMemEval M question is ~6 MB. Past it the file is refused rather
 * than held in memory chunk by chunk until the process dies (a list that is one 3 GB element).
 */
export const MAX_ELEMENT_BYTES = 128 << 20;

export function* jsonArrayElements(
  file: string,
  label: string,
  onBytes?: (done: number, total: number) => void,
  chunkBytes = CHUNK,
  maxElementBytes = MAX_ELEMENT_BYTES,
): Generator<unknown> {
  const fd = fs.openSync(file, "r");
  try {
    const total = fs.fstatSync(fd).size;
    // Chunks are reused once no part of an unfinished element is a view on them: fresh 8 MB buffers cost
    // page faults on every read of a 2.7 GB file.
    const spare: Buffer[] = [];
    let held: Buffer[] = [];
    let started = false;
    let ended = false;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let parts: Buffer[] = [];
    let index = 0;
    let read = 0;
    /** Bytes of the unfinished element held in `parts`. */
    let partBytes = 0;
    /** Nesting past MAX_JSON_DEPTH: named from the element's text so far (only on this error path). */
    const tooDeep = (buf: Buffer, from: number, i: number): never => {
      const text = Buffer.concat([...parts, buf.subarray(from, i + 1)]).toString("utf8");
      const t = jsonTextTooDeep(text);
      throw new DatasetError(tooDeepMessage(`${label}: [${index}]`, t ?? { line: 0, column: 0, field: "(somewhere)" }));
    };
    const emit = function* (): Generator<unknown> {
      const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString("utf8").trim();
      parts = [];
      partBytes = 0;
      for (const b of held) if (spare.length < 4) spare.push(b);
      held = [];
      if (!text) {
        if (index === 0) return; // "[]" or "[ ]"
        throw new DatasetError(`${label}: [${index}]: an empty element (two commas in a row?)`);
      }
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        const e = findJsonError(text);
        throw new DatasetError(
          `${label}: [${index}]: not valid JSON${e ? ` (line ${e.line} of the element, column ${e.column}: ${e.reason})` : ""}`,
        );
      }
      index++;
      yield v;
    };
    for (;;) {
      // An element's parts are views on the chunks, copied only by the one concat when it is complete.
      const chunk = spare.pop() ?? Buffer.allocUnsafe(chunkBytes);
      const n = fs.readSync(fd, chunk, 0, chunkBytes, null);
      if (n === 0) break;
      read += n;
      const buf = chunk.subarray(0, n);
      let from = 0;
      // Inside strings (most of the bytes: the turns' text) the next quote and backslash are found
      // with indexOf (memchr) rather than byte by byte; the backslash position is kept until passed.
      let nextBackslash = -1;
      let i = 0;
      while (i < n) {
        if (inString) {
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          let quote = buf.indexOf(0x22, i);
          if (quote < 0) quote = n;
          if (nextBackslash < i && nextBackslash !== n) {
            nextBackslash = buf.indexOf(0x5c, i);
            if (nextBackslash < 0) nextBackslash = n;
          }
          if (nextBackslash < quote) {
            escaped = true;
            i = nextBackslash + 1;
          } else if (quote < n) {
            inString = false;
            i = quote + 1;
          } else i = n;
          continue;
        }
        const c = buf[i];
        if (!started) {
          if (c === 0x5b) {
            started = true;
            from = i + 1;
          } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && !(i < 3 && read === n && [0xef, 0xbb, 0xbf][i] === c))
            throw new DatasetError(`${label}: expected a list of questions ([...]) at the start of the file`);
        } else if (ended) {
          if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) throw new DatasetError(`${label}: text after the list's closing ]`);
        } else if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) {
          // depth counts inside one element (the list's own bracket is not counted).
          if (++depth > MAX_JSON_DEPTH) tooDeep(buf, from, i);
        } else if (c === 0x7d || c === 0x5d) {
          if (depth === 0 && c === 0x5d) {
            parts.push(buf.subarray(from, i));
            yield* emit();
            ended = true;
          } else depth--;
        } else if (c === 0x2c && depth === 0) {
          parts.push(buf.subarray(from, i));
          yield* emit();
          from = i + 1;
        }
        i++;
      }
      if (!ended && started) {
        parts.push(buf.subarray(from, n));
        partBytes += n - from;
        if (partBytes > maxElementBytes)
          throw new DatasetError(
            `${label}: [${index}]: one element is over ${Math.round(maxElementBytes / 2 ** 20)} MB (a question is a few MB): not a file this importer reads`,
          );
        held.push(chunk);
      } else if (spare.length < 4) spare.push(chunk);
      onBytes?.(read, total);
    }
    if (!started) throw new DatasetError(`${label}: the file is empty (expected a list of questions)`);
    if (!ended) throw new DatasetError(`${label}: the list is not closed (the file ends inside element [${index}])`);
  } finally {
    fs.closeSync(fd);
  }
}
