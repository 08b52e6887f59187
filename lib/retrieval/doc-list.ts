/** The documents of one retriever in insertion order (the tie-break order), and top-k selection. */
import { InvalidInputError } from "@/lib/errors";
import type { RetrievalDoc, SearchHit } from "./types";

export class DocList<T> {
  readonly docs: RetrievalDoc<T>[] = [];
  private ids = new Set<string>();

  /** Checks a batch before anything is stored, so a refused batch changes nothing. Returns the batch's ids. */
  check(batch: RetrievalDoc<T>[]): Set<string> {
    const seen = new Set<string>();
    batch.forEach((d, i) => {
      if (typeof d.id !== "string" || d.id.length === 0) throw new InvalidInputError(`docs[${i}].id: must be a non-empty string`);
      if (typeof d.text !== "string") throw new InvalidInputError(`docs[${i}].text: must be a string (id ${d.id})`);
      if (this.ids.has(d.id) || seen.has(d.id)) throw new InvalidInputError(`docs[${i}].id: duplicate id "${d.id}"`);
      seen.add(d.id);
    });
    return seen;
  }

  /**
   * Stores a checked batch. `checked`, what check() returned for it, saves adding every id again when
   * the list was empty (a retriever built per answer holds one batch).
   */
  push(batch: RetrievalDoc<T>[], checked?: Set<string>): void {
    if (checked && this.ids.size === 0) {
      this.ids = checked;
      for (const d of batch) this.docs.push(d);
      return;
    }
    for (const d of batch) {
      this.ids.add(d.id);
      this.docs.push(d);
    }
  }

  get length(): number {
    return this.docs.length;
  }
}

export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 0) throw new InvalidInputError(`k: must be a non-negative integer, got ${k}`);
}

/**
 * The k highest scores, best first, equal scores in insertion (index) order. `keep` says which
 * indices may be returned at all (the caller's filter).
 */
export function topK<T>(docs: RetrievalDoc<T>[], scores: ArrayLike<number>, k: number, keep: (index: number) => boolean): SearchHit<T>[] {
  // k is small (3 in Mem-PAL): keep a sorted buffer of the best k instead of sorting every score.
  // Scanning in index order and inserting only strictly better scores keeps ties in insertion order.
  if (k > 64) {
    const idx: number[] = [];
    for (let i = 0; i < docs.length; i++) if (keep(i)) idx.push(i);
    idx.sort((a, b) => scores[b] - scores[a] || a - b);
    return idx.slice(0, k).map((i) => ({ id: docs[i].id, score: scores[i], doc: docs[i] }));
  }
  const best: number[] = [];
  if (k > 0) {
    for (let i = 0; i < docs.length; i++) {
      const s = scores[i];
      if (best.length === k && s <= scores[best[k - 1]]) continue;
      if (!keep(i)) continue;
      let j = best.length < k ? best.length : k - 1;
      while (j > 0 && scores[best[j - 1]] < s) {
        if (j < k) best[j] = best[j - 1];
        j--;
      }
      best[j] = i;
    }
  }
  return best.map((i) => ({ id: docs[i].id, score: scores[i], doc: docs[i] }));
}
