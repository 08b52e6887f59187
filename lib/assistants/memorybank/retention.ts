/**
 * The memory inspector's per-session view of MemoryBank's forgetting: for each session, the pieces it
 * stored (turns and its summary) and how many of them are kept or forgotten in the memory as built, and
 * how many earlier pieces its arrival forgot. Read from the stored entries (each piece's last version).
 */
import type { Piece } from "./engine";

export type RetentionRow = { seq: number; stored: number; kept: number; forgotten: number; forgottenAtArrival: number };

type Entry = { kind: string; key: string; content: unknown; validToSeq: number | null };

const isPiece = (c: unknown): c is Piece =>
  !!c && typeof c === "object" && typeof (c as Piece).seq === "number" && typeof (c as Piece).id === "string";

/** `sessions`: each session's seq and time (ms), in order. */
export function retentionBySession(entries: readonly Entry[], sessions: ReadonlyArray<{ seq: number; at: number }>): RetentionRow[] {
  const last = entries
    .filter((e) => (e.kind === "turn" || e.kind === "event") && e.validToSeq === null && isPiece(e.content))
    .map((e) => e.content as Piece);
  return sessions.map(({ seq, at }) => {
    const own = last.filter((p) => p.seq === seq);
    const forgotten = own.filter((p) => p.forgottenAt !== undefined).length;
    return {
      seq,
      stored: own.length,
      kept: own.length - forgotten,
      forgotten,
      forgottenAtArrival: last.filter((p) => p.forgottenAt === at).length,
    };
  });
}
