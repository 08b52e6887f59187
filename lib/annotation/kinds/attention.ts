/**
 * Building blocks of automatic attention checks (issue 43.3), shared by the kinds: a clearly broken reply
 * made from a reply's own words (so its length and vocabulary are no tell, but it reads as nonsense), and
 * the two pairwise checks. Each kind decides which check fits it and what an attentive answer is.
 */
import type { AttentionCheck, CampaignKindDef, ParsedItem } from "./types";
import type { Turn } from "./fields";

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * Word salad: the words of `source` (minus `avoid`'s), shuffled, stuttered and cut off mid-sentence. At
 * least 12 words; a short source is repeated, so "Paris" becomes "paris paris paris ...".
 */
export function brokenText(source: string, rng: () => number, avoid = ""): string {
  const banned = new Set(words(avoid));
  let pool = words(source).filter((w) => !banned.has(w));
  if (pool.length === 0) pool = ["the", "and", "of", "to"];
  const target = Math.max(12, Math.min(80, pool.length));
  const out: string[] = [];
  while (out.length < target) {
    const w = pool[Math.floor(rng() * pool.length)];
    out.push(w);
    // A stutter now and then: the same word two or three times.
    if (rng() < 0.3) out.push(w, ...(rng() < 0.5 ? [w] : []));
  }
  return out.slice(0, target).join(" ");
}

/** An output with every assistant turn (or the whole text) replaced by broken text made from it. */
export function brokenOutput(output: unknown, rng: () => number): string | Turn[] {
  if (Array.isArray(output))
    return (output as Turn[]).map((t) => (t.role === "assistant" ? { role: t.role, content: brokenText(t.content, rng) } : t));
  return brokenText(typeof output === "string" ? output : JSON.stringify(output), rng);
}

const every = (keys: string[], value: string) => Object.fromEntries(keys.map((k) => [k, value]));

/**
 * Pairwise checks, alternating: an identical pair (one side's output on both sides, expected Tie) and a
 * broken reply (one side, drawn, broken; expected: the other side wins). The systems stay the source
 * item's, so the sides carry the same labels as any item.
 */
export function pairwiseAttention(dimensionKeys: string[]): NonNullable<CampaignKindDef["attentionCheck"]> {
  return (item: ParsedItem, n: number, rng: () => number): AttentionCheck | null => {
    const o = item.outputs;
    if (!o) return null;
    if (n % 2 === 0) {
      const same = rng() < 0.5 ? o.A.output : o.B.output;
      return {
        check: "identical-pair",
        content: item.content,
        outputs: { A: { ...o.A, output: same }, B: { ...o.B, output: same } },
        gold: every(dimensionKeys, "Tie"),
      };
    }
    const breakA = rng() < 0.5;
    return {
      check: "broken-reply",
      content: item.content,
      outputs: {
        A: breakA ? { ...o.A, output: brokenOutput(o.A.output, rng) } : o.A,
        B: breakA ? o.B : { ...o.B, output: brokenOutput(o.B.output, rng) },
      },
      gold: every(dimensionKeys, breakA ? "Lose" : "Win"),
    };
  };
}
