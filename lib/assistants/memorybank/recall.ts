/**
 * MemoryBank at answer time: the forgetting rule decides which pieces are still remembered at the
 * session's time (forgetting.ts: seeded sampling with probability R, or a threshold on R); the top-k
 * of the rest are retrieved. Answering does not reinforce (see engine.ts).
 */
import type { MakeIndex } from "../baselines/types";
import { forgottenPieces, livePieces, type Piece } from "./engine";
import type { ForgetRule } from "./forgetting";

export async function memorybankRecall(
  makeIndex: MakeIndex,
  k: number,
  query: string,
  pieces: readonly Piece[],
  at: number,
  rule: ForgetRule,
): Promise<{ retrieved: Piece[]; forgotten: number }> {
  // Pieces forgotten while building stay forgotten; the rule then runs over the rest at this time.
  const live = livePieces(pieces);
  const dropped = forgottenPieces(live, at, rule);
  const kept = live.filter((p) => !dropped.has(p.id));
  if (!kept.length) return { retrieved: [], forgotten: pieces.length };
  const index = makeIndex<Piece>();
  await index.add(kept.map((p) => ({ id: p.id, text: p.text, meta: p })));
  return { retrieved: (await index.search(query, k)).map((h) => h.doc.meta!), forgotten: pieces.length - kept.length };
}
