/**
 * One item's labels on one dimension as words for the items table: "humans: A wins ×2 · judge: tie",
 * not "Win Win · Tie". Pairwise values are for the side shown as A (the systems are named above the
 * table); ratings read "3 (completely matches)".
 */
export type Category = { value: string; label: string };

function word(value: string, categories: Category[]): string {
  const label = categories.find((c) => c.value === value)?.label ?? value;
  if (label === "Win") return "A wins";
  if (label === "Lose") return "B wins";
  if (label === "Tie") return "tie";
  const rating = label.match(/^(\d+) · (.+)$/);
  return rating ? `${rating[1]} (${rating[2]})` : label.charAt(0).toLowerCase() + label.slice(1);
}

/** "A wins ×2, tie": each value once, most frequent first, with its count when more than one gave it. */
function counted(values: string[], categories: Category[]): string {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  return [...n]
    .sort((a, b) => b[1] - a[1])
    .map(([v, k]) => `${word(v, categories)}${k > 1 ? ` ×${k}` : ""}`)
    .join(", ");
}

export function cellWords(cell: { humans: string[]; judges: string[]; adjudicated: string | null }, categories: Category[]): string {
  const parts: string[] = [];
  parts.push(cell.humans.length ? `humans: ${counted(cell.humans, categories)}` : "no human label yet");
  if (cell.judges.length) parts.push(`${cell.judges.length > 1 ? "judges" : "judge"}: ${counted(cell.judges, categories)}`);
  if (cell.adjudicated) parts.push(`adjudicated: ${word(cell.adjudicated, categories)}`);
  return parts.join(" · ");
}
