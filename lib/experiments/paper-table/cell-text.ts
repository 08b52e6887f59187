/** How a cell reads: the value at its decimals, ± sd, a sign on differences, † for significance. */
import type { Cell, Column, SectionKind } from "./types";

export type CellParts = { value: string; sd: string | null; sig: boolean; rank: 1 | 2 | null };

export function cellParts(c: Cell, col: Column, kind: SectionKind): CellParts {
  const d = c.digits ?? col.digits;
  if (c.value === null) return { value: "—", sd: null, sig: false, rank: null };
  // Differences carry their sign; -0.00 reads 0.00.
  const v = Number(c.value.toFixed(d)) === 0 ? 0 : c.value;
  const value = kind === "difference" && v > 0 ? `+${v.toFixed(d)}` : v.toFixed(d);
  return { value, sd: c.sd === null ? null : c.sd.toFixed(d), sig: c.sig, rank: kind === "run" ? c.rank : null };
}

/** Plain text: "26.67 ± 0.42†". */
export function cellPlain(c: Cell, col: Column, kind: SectionKind): string {
  const p = cellParts(c, col, kind);
  return `${p.value}${p.sd !== null ? ` ± ${p.sd}` : ""}${p.sig ? "†" : ""}`;
}
