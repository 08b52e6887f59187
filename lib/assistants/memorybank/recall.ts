/**
 * MemoryBank at answer time: pieces whose retention has fallen below the threshold are forgotten;
 * the top-k of the rest are retrieved. Answering does not reinforce (see strength.ts).
 */
import type { MakeIndex } from "../baseline-types";
import type { Piece } from "./engine";

export type RetentionFn = (elapsedDays: number, strength: number) => number;

export async function memorybankRecall(
  makeIndex: MakeIndex,
  k: number,
  query: string,
  pieces: readonly Piece[],
  at: number,
  retention: RetentionFn,
  threshold: number,
): Promise<{ retrieved: Piece[]; forgotten: number }> {
  const kept = pieces.filter((p) => retention(Math.max(0, at - p.lastRecalledAt) / 86_400_000, p.strength) >= threshold);
  if (!kept.length) return { retrieved: [], forgotten: pieces.length };
  const index = makeIndex<Piece>();
  await index.add(kept.map((p) => ({ id: p.id, text: p.text, meta: p })));
  return { retrieved: (await index.search(query, k)).map((h) => h.doc.meta!), forgotten: pieces.length - kept.length };
}
