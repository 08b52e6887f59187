/**
 * Sessions stored once: LongMemEval's haystacks repeat the same sessions across questions (about 50 per
 * question in S, 500 in M). A session is the same when its id and its turns (as stored) are the same; an
 * id seen with other turns is kept as a second row rather than merged.
 *
 * The hash is sha256 of the turns written as JSON. Every repeat of a session is hashed again (the hash is
 * what says it is a repeat), so the JSON is written by concatenation: JSON.stringify's per-character
 * escaping pass over a turn's text costs more than hashing it, and most texts need no escaping at all.
 */
import crypto from "node:crypto";
import type { SessionIn, TurnIn } from "./types";

/** Nothing JSON.stringify would escape: no quote, backslash, control character or (possibly lone) surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** JSON.stringify(s), byte for byte. */
export const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

const jsonValue = (v: unknown): string =>
  v === null || v === undefined ? "null" : typeof v === "string" ? jsonString(v) : JSON.stringify(v);

/** The stored hash of a session: the first 32 hex digits of sha256 of its canonical JSON. */
export const sessionHash = (json: string): string => crypto.hash("sha256", json, "hex").slice(0, 32);

/**
 * JSON.stringify of `rows` (arrays of JSON values) without building the arrays: the canonical form a
 * session's turns are hashed in.
 */
export function rowsJson(rows: number, cells: number, cell: (row: number, i: number) => unknown): string {
  let out = "[";
  for (let r = 0; r < rows; r++) {
    out += r ? ",[" : "[";
    for (let i = 0; i < cells; i++) out += (i ? "," : "") + jsonValue(cell(r, i));
    out += "]";
  }
  return out + "]";
}

export class SessionPool {
  readonly sessions: SessionIn[] = [];
  private readonly index = new Map<string, number>();

  /** The index of the session with this id and these turns, added when new. */
  add(key: string, turns: TurnIn[]): number {
    const hash = sessionHash(rowsJson(turns.length, 5, (r, i) => canonicalCell(turns[r], i)));
    const k = `${key}\u0000${hash}`;
    let i = this.index.get(k);
    if (i === undefined) {
      i = this.sessions.length;
      this.sessions.push({ key, hash, turns });
      this.index.set(k, i);
    }
    return i;
  }
}

/** A LoCoMo turn as hashed: speaker, text, dia_id, has_answer and its other fields sorted by name. */
function canonicalCell(t: TurnIn, i: number): unknown {
  switch (i) {
    case 0:
      return t.speaker;
    case 1:
      return t.text;
    case 2:
      return t.diaId ?? null;
    case 3:
      return t.hasAnswer ?? null;
    default:
      return t.extra ? Object.entries(t.extra).sort(([a], [b]) => (a < b ? -1 : 1)) : null;
  }
}
