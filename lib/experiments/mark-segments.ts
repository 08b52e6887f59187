/**
 * Splits a block's text at its marks, for the pages (client) and the HTML export alike. A mark whose
 * offsets no longer match its quote (the text changed) is placed at the quote's first occurrence, or
 * dropped; a mark overlapping an earlier one is dropped from the rendering (it stays in the list).
 */
export type MarkLike = { start: number; end: number; quote: string };

export function markSegments<M extends MarkLike>(text: string, marks: M[]): Array<{ text: string; mark: M | null }> {
  const placed = marks
    .map((m) => {
      if (text.slice(m.start, m.end) === m.quote) return { m, start: m.start, end: m.end };
      const at = text.indexOf(m.quote);
      return at >= 0 ? { m, start: at, end: at + m.quote.length } : null;
    })
    .filter((x): x is { m: M; start: number; end: number } => x !== null)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Array<{ text: string; mark: M | null }> = [];
  let at = 0;
  for (const p of placed) {
    if (p.start < at) continue;
    if (p.start > at) out.push({ text: text.slice(at, p.start), mark: null });
    out.push({ text: text.slice(p.start, p.end), mark: p.m });
    at = p.end;
  }
  if (at < text.length || !out.length) out.push({ text: text.slice(at), mark: null });
  return out;
}

/** Block ids: where a mark sits. The item page, the compare view and the exports build them the same way. */
export const blockId = {
  info: (card: string, label: string) => `info:${card}:${label}`,
  input: (label: string) => `input:${label}`,
  reference: (label: string) => `reference:${label}`,
  utterance: (jobId: number, index: number) => `job:${jobId}:u${index}`,
  answer: (jobId: number, label: string) => `job:${jobId}:answer:${label}`,
  memory: (jobId: number, step: string, index: number) => `job:${jobId}:mem:${step}:${index}`,
  analysis: (pairJobId: number, dimension: string, judgment: number, label: string) =>
    `job:${pairJobId}:judge:${dimension}:${judgment}:${label}`,
};
