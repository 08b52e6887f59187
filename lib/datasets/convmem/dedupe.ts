/**
 * Sessions stored once: LongMemEval's haystacks repeat the same sessions across questions (about 50 per
 * question in S, 500 in M). A session is the same when its id and its turns (as stored) are the same; an
 * id seen with other turns is kept as a second row rather than merged.
 */
import crypto from "node:crypto";
import type { SessionIn, TurnIn } from "./types";

export class SessionPool {
  readonly sessions: SessionIn[] = [];
  private readonly index = new Map<string, number>();

  /** The index of the session with this id and these turns, added when new. */
  add(key: string, turns: TurnIn[]): number {
    const hash = crypto
      .createHash("sha256")
      .update(JSON.stringify(turns.map(canonicalTurn)))
      .digest("hex")
      .slice(0, 32);
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

function canonicalTurn(t: TurnIn): unknown[] {
  return [
    t.speaker,
    t.text,
    t.diaId ?? null,
    t.hasAnswer ?? null,
    t.extra ? Object.entries(t.extra).sort(([a], [b]) => (a < b ? -1 : 1)) : null,
  ];
}
