/**
 * Checking one raw HiCUPID row and turning it into the shape the importer stores. A missing required
 * column or a value of the wrong type is a DatasetError naming file, row and column; columns we do not
 * know are kept in `extra`, never dropped (docs/data-formats.md).
 */
import { DatasetError } from "../types";
import { MAX_JSON_DEPTH, jsonTextTooDeep } from "@/lib/json-depth";
import type { HcSource, RawRow } from "./read";

export type TurnRow = {
  userKey: string;
  dialogueKey: string;
  split: string;
  user: string;
  assistant: string;
  /** The row's `type` column, when the file has one. */
  type: string | null;
  /** The row's `metadata` column, when the file has one. */
  metadata: unknown;
  extra: Record<string, unknown> | null;
};

export type QaRow = {
  userKey: string;
  split: string;
  /** The relevant dialogue ids, as dialogue keys (strings, like hc_dialogues.dialogue_key). */
  dialogueKeys: string[];
  type: string;
  question: string;
  personalizedAnswer: string;
  generalAnswer: string;
  metadata: unknown;
  extra: Record<string, unknown> | null;
};

const TURN_COLUMNS = new Set(["user_id", "dialogue_id", "user", "assistant", "type", "metadata", "split"]);
const QA_COLUMNS = new Set(["user_id", "dialogue_id", "question", "personalized_answer", "general_answer", "type", "metadata", "split"]);

export function toTurnRow(raw: RawRow, src: HcSource): TurnRow {
  const c = new RowChecker(raw, src);
  return {
    userKey: c.key("user_id"),
    dialogueKey: c.key("dialogue_id"),
    split: c.split(src.split),
    user: c.text("user"),
    assistant: c.text("assistant"),
    type: c.optionalText("type"),
    metadata: c.metadata(),
    extra: c.extra(TURN_COLUMNS),
  };
}

export function toQaRow(raw: RawRow, src: HcSource): QaRow {
  const c = new RowChecker(raw, src);
  return {
    userKey: c.key("user_id"),
    split: c.split(src.split),
    dialogueKeys: c.keyList("dialogue_id"),
    type: c.text("type"),
    question: c.text("question"),
    personalizedAnswer: c.text("personalized_answer"),
    generalAnswer: c.text("general_answer"),
    metadata: c.metadata(),
    extra: c.extra(QA_COLUMNS),
  };
}

class RowChecker {
  private readonly v: Record<string, unknown>;
  private readonly at: string;

  constructor(raw: RawRow, src: HcSource) {
    this.v = raw.values;
    this.at = `${src.label}: ${raw.where}`;
  }

  private fail(msg: string): never {
    throw new DatasetError(`${this.at}: ${msg}`);
  }

  private wrongType(col: string, expected: string, got: unknown): never {
    this.fail(`column "${col}": expected ${expected}, got ${describe(got)}`);
  }

  private required(col: string): unknown {
    const value = this.v[col];
    if (value === undefined) this.fail(`missing required column "${col}"`);
    return value;
  }

  text(col: string): string {
    const value = this.required(col);
    if (typeof value !== "string") this.wrongType(col, "a string", value);
    return value;
  }

  optionalText(col: string): string | null {
    const value = this.v[col];
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") this.wrongType(col, "a string", value);
    return value;
  }

  /** User and dialogue ids are integers in the published parquet (INT64) and may be strings elsewhere. */
  key(col: string): string {
    return this.asKey(col, this.required(col));
  }

  private asKey(col: string, value: unknown): string {
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number" && Number.isInteger(value)) return String(value);
    this.wrongType(col, "an integer or a non-empty string", value);
  }

  /** A list of ids; a single id, or a JSON-encoded list (CSV-ish exports), is accepted too. */
  keyList(col: string): string[] {
    let value = this.required(col);
    if (typeof value === "string" && value.trimStart().startsWith("[")) {
      try {
        value = JSON.parse(value);
      } catch {
        this.fail(`column "${col}": "${value}" is not a JSON list`);
      }
    }
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) value = Array.from(value as unknown as ArrayLike<unknown>);
    if (!Array.isArray(value)) return [this.asKey(col, value)];
    return value.map((x) => this.asKey(col, x));
  }

  split(fromFile: string): string {
    const value = this.v.split;
    if (value === undefined || value === null) return fromFile;
    if (typeof value !== "string" || value === "") this.wrongType("split", "a non-empty string", value);
    return value;
  }

  /**
   * Nested metadata: a struct in the hub's parquet, an object in JSONL, or a JSON string (writers that
   * cannot nest). Null members are dropped, because parquet readers leave absent struct members out
   * while JSON keeps them as null: the same row should store the same value from either layout.
   */
  metadata(): unknown {
    let value = this.v.metadata;
    if (value === undefined || value === null) return null;
    if (typeof value === "string") {
      if (!value.trim()) return null;
      const deep = jsonTextTooDeep(value);
      if (deep) this.fail(`column "metadata": field "${deep.field}": nested deeper than ${MAX_JSON_DEPTH} levels`);
      try {
        value = JSON.parse(value);
      } catch {
        this.fail(`column "metadata": a string that is not valid JSON`);
      }
    }
    if (typeof value !== "object" || value === null) this.wrongType("metadata", "an object (struct) or a JSON string", value);
    return dropNulls(toPlain(value));
  }

  extra(known: Set<string>): Record<string, unknown> | null {
    let out: Record<string, unknown> | null = null;
    for (const [k, value] of Object.entries(this.v)) {
      if (known.has(k) || value === undefined) continue;
      (out ??= {})[k] = toPlain(value);
    }
    return out;
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return v === "" ? "an empty string" : `the string "${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}

/** Values as JSON can hold them: INT64 bigints become numbers (strings if too large), dates ISO strings, bytes base64. */
export function toPlain(v: unknown): unknown {
  if (typeof v === "bigint") return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<unknown>, toPlain);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toPlain(x);
    return out;
  }
  return v;
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = dropNulls(x);
    return out;
  }
  return v;
}
