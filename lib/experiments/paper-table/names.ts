/**
 * Methods as the papers name them in their tables (Mem-PAL Table 2; HiCUPID Table 3's methods), plain
 * and for LaTeX. A method the papers do not have keeps its key.
 */
import type { MethodSpec } from "../config";
import { methodKey } from "../config";

export type PaperName = {
  name: string;
  latex: string;
  /** The paper's row this method is compared with (published.ts). */ row: string | null;
};

const MEM_PAL: Record<string, [plain: string, latex: string]> = {
  vanilla: ["Vanilla (w/o log)", "Vanilla (w/o log)"],
  "vanilla-log": ["Vanilla (with log)", "Vanilla (with log)"],
  "turn-rag": ["Turn-level RAG", "Turn-level RAG"],
  "session-rag": ["Session-level RAG", "Session-level RAG"],
  recursum: ["RecurSum", "RecurSum"],
  conditionmem: ["ConditionMem", "ConditionMem"],
  memorybank: ["MemoryBank", "MemoryBank"],
  h2memory: ["H2Memory", "H2Memory"],
  "h2memory-no-graph": ["H2Memory (w/o M_G)", "H2Memory (w/o $M_G$)"],
  "h2memory-no-background": ["H2Memory (w/o M_B)", "H2Memory (w/o $M_B$)"],
  "h2memory-no-topic": ["H2Memory (w/o M_T)", "H2Memory (w/o $M_T$)"],
  "h2memory-no-principle": ["H2Memory (w/o M_P)", "H2Memory (w/o $M_P$)"],
};

/** LaTeX's special characters in plain text. */
export function latexEscape(s: string): string {
  return s.replace(/[\\{}$&#%_^~]/g, (c) =>
    c === "\\" ? "\\textbackslash{}" : c === "^" ? "\\textasciicircum{}" : c === "~" ? "\\textasciitilde{}" : `\\${c}`,
  );
}

/** A Mem-PAL method: the paper's name (a second option set of a method adds its label). */
export function memPalName(m: Pick<MethodSpec, "name" | "label">): PaperName {
  const known = MEM_PAL[m.name];
  const key = methodKey(m);
  if (!known) return { name: key, latex: latexEscape(key), row: null };
  const extra = m.label && m.label !== m.name ? ` [${m.label}]` : "";
  return { name: known[0] + extra, latex: known[1] + latexEscape(extra), row: m.name };
}

/**
 * A HiCUPID inference setting as the paper's Method column names it: 0-shot / 3-shot (whole history),
 * BM25 / Contriever (utterance retrieval, k = 5; our dense retriever stands in for Contriever).
 */
export function hicupidName(m: Pick<MethodSpec, "name" | "label" | "options">): PaperName {
  const o = m.options as { shots?: number; retriever?: string; k?: number; instruction?: string };
  const shots = o.shots ?? 0;
  const extras: string[] = [];
  const rag = m.name === "rag-utterance" || m.name === "rag-dialogue";
  // The paper's own prompts: the instruction in the user turn for 0/3-shot, as the system prompt for the
  // RAG runs (the public scripts run RAG with `zero/system`): only the other placement is an extra.
  if (!rag && o.instruction === "system") extras.push("system instruction");
  if (rag && o.instruction === "user") extras.push("user instruction");
  let base: string | null = null;
  if (m.name === "full-history") base = `${shots}-shot`;
  else if (rag) {
    base = (o.retriever ?? "bm25") === "dense" ? "Contriever" : "BM25";
    if (shots) extras.push(`${shots}-shot`);
    if (m.name === "rag-dialogue") extras.push(`dialogues, k = ${o.k ?? 1}`);
    else if ((o.k ?? 5) !== 5) extras.push(`k = ${o.k}`);
  } else if (m.name === "gold") base = `Gold dialogues${shots ? `, ${shots}-shot` : ""}`;
  if (base === null) {
    const key = methodKey(m);
    return { name: key, latex: latexEscape(key), row: null };
  }
  const name = extras.length ? `${base} (${extras.join(", ")})` : base;
  // Only the paper's own settings have a published row: 0-shot, 3-shot, and utterance retrieval at k = 5 with no shots.
  const row = !extras.length && ["0-shot", "3-shot", "BM25", "Contriever"].includes(base) ? base : null;
  return { name, latex: latexEscape(name), row };
}
