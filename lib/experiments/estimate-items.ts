/**
 * An estimate's item count in words: with repeats, the items of one run times the runs ("6 × 3 runs = 18"),
 * so "18" never reads as 18 distinct items when it is 6 done three times.
 */
export function itemsText(items: number, runs: number): string {
  return runs > 1 && items % runs === 0 ? `${items / runs} × ${runs} runs = ${items}` : String(items);
}
