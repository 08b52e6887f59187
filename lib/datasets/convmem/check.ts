/**
 * Reading the public JSON files of LoCoMo and LongMemEval: bounded in size, parsed once, and checked
 * field by field with errors naming the file, the record and the JSON path (`locomo10.json: [3].qa[12].category: ...`).
 */
import fs from "node:fs";
import path from "node:path";
import { DatasetError } from "../types";
import { findJsonError } from "../palset/json-error";
import { jsonTextTooDeep, tooDeepMessage } from "@/lib/json-depth";

/**
 * V8 cannot hold a string much over 500 MB, and a parsed file costs several times its size in memory:
 * files read in one piece (LoCoMo's, a few MB) are refused above 600 MB with a message rather than
 * crashing the process. LongMemEval's files are streamed instead (./json-array-stream.ts).
 */
export const MAX_JSON_BYTES = 600 * 1024 * 1024;

export function readJsonFile(file: string, maxBytes = MAX_JSON_BYTES): unknown {
  const label = path.basename(file);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new DatasetError(`${label}: no such file`);
  }
  if (size > maxBytes)
    throw new DatasetError(
      `${label}: ${(size / 1e6).toFixed(0)} MB is over the ${(maxBytes / 1e6).toFixed(0)} MB this importer parses in one piece`,
    );
  const text = fs.readFileSync(file, "utf8");
  // Before parsing: a field nested thousands deep parses, then breaks the write (JSON.stringify's stack).
  const deep = jsonTextTooDeep(text);
  if (deep) throw new DatasetError(tooDeepMessage(`${label}: line ${deep.line}`, deep));
  try {
    return JSON.parse(text);
  } catch {
    const e = findJsonError(text);
    throw new DatasetError(`${label}: not valid JSON${e ? ` (line ${e.line}, column ${e.column}: ${e.reason})` : ""}`);
  }
}

/**
 * Ids, speakers' names and dates are short, and copied into other rows: an item key into every job of
 * every run, a speaker's name before each of their turns as methods read them (a 1 MB name over 600
 * turns would be 600 MB). The public files' longest are a few dozen characters.
 */
export const MAX_KEY_CHARS = 200;

/** Field checks that throw a DatasetError naming `where`. */
export class Checker {
  constructor(readonly file: string) {}

  fail(where: string, msg: string): never {
    throw new DatasetError(`${this.file}: ${where}: ${msg}`);
  }

  object(v: unknown, where: string): Record<string, unknown> {
    if (!v || typeof v !== "object" || Array.isArray(v)) this.fail(where, `expected an object, got ${kindOf(v)}`);
    return v as Record<string, unknown>;
  }

  array(v: unknown, where: string): unknown[] {
    if (!Array.isArray(v)) this.fail(where, `expected a list, got ${kindOf(v)}`);
    return v;
  }

  string(v: unknown, where: string): string {
    if (typeof v !== "string") this.fail(where, `expected a string, got ${kindOf(v)}`);
    return v;
  }

  /** A string or a number written as the reference answer (LoCoMo and LongMemEval both hold a few numbers). */
  text(v: unknown, where: string): string {
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    return this.string(v, where);
  }

  strings(v: unknown, where: string): string[] {
    return this.array(v, where).map((x, i) => this.string(x, `${where}[${i}]`));
  }

  /** An id, a speaker's name or a date: a string (a number too, for ids) of at most MAX_KEY_CHARS. */
  key(v: unknown, where: string, numberOk = false): string {
    const s = numberOk ? this.text(v, where) : this.string(v, where);
    if (s.length > MAX_KEY_CHARS) this.fail(where, `at most ${MAX_KEY_CHARS} characters, got ${s.length}`);
    return s;
  }

  keys(v: unknown, where: string): string[] {
    return this.array(v, where).map((x, i) => this.key(x, `${where}[${i}]`));
  }
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing (missing)";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}
