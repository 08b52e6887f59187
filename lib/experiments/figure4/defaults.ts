/**
 * What a figure shows before the researcher picks: the starred method, the reference and two baselines
 * (Mem-PAL's Figure 4 sets H2Memory beside real memory baselines, not beside Vanilla, Vanilla + logs or
 * plain retrieval), over the two or three turns that carry the highlights (else the first three).
 */
import { referenceMethod } from "../config";

/** Methods that are controls rather than baselines a figure argues against: shown only when nothing else is left. */
const CONTROLS = new Set(["vanilla", "vanilla-log", "turn-rag", "session-rag"]);
/** The registry's ablations: after the baselines, before the controls. */
const isAblation = (name: string) => /^h2memory-/.test(name);

export const DEFAULT_TURNS = 3;
const MAX_COLUMNS = 4;

type ConfigMethod = { name: string; label?: string };

/**
 * The default columns, in the experiment's order: the starred methods and the reference, then up to two
 * baselines (real baselines first, then ablations, then controls). `available` are the method keys
 * (label, else name) that answered the item, in the experiment's order.
 */
export function defaultMethods(available: string[], config: { methods?: ConfigMethod[]; reference?: string }, starred: string[]): string[] {
  const methods = config.methods ?? [];
  const nameOf = (key: string) => methods.find((m) => (m.label ?? m.name) === key)?.name ?? key;
  const reference = methods.length ? referenceMethod({ methods, reference: config.reference }) : undefined;
  const lead = [...starred, ...(reference ? [reference] : [])].filter((m, i, a) => available.includes(m) && a.indexOf(m) === i);
  const rank = (key: string) => (CONTROLS.has(nameOf(key)) ? 2 : isAblation(nameOf(key)) ? 1 : 0);
  const rest = available.filter((m) => !lead.includes(m)).sort((a, b) => rank(a) - rank(b) || available.indexOf(a) - available.indexOf(b));
  const chosen = new Set([...lead.slice(0, MAX_COLUMNS), ...rest.slice(0, Math.max(0, Math.min(2, MAX_COLUMNS - lead.length)))]);
  const picked = available.filter((m) => chosen.has(m));
  return picked.length ? picked : available.slice(0, 3);
}

/** The default turns: those with a highlight (at most three), topped up with the earliest turns to three. */
export function defaultTurns(allTurns: number[], highlighted: number[]): number[] {
  const marked = allTurns.filter((t) => highlighted.includes(t)).slice(0, DEFAULT_TURNS);
  const fill = allTurns.filter((t) => !marked.includes(t)).slice(0, Math.max(0, DEFAULT_TURNS - marked.length));
  return [...marked, ...fill].sort((a, b) => a - b);
}
