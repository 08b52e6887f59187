/**
 * Automatic attention checks (issue 43.3), made once when a link campaign is created from its own items
 * by the kind's `attentionCheck` (an identical pair, a broken reply). They are stored as items with a
 * `gold` answer and their `attention` check named, so everything that keeps gold items out of agreement,
 * tables and k keeps them out too; the participant's browser receives them exactly as any item (content
 * and two sides in the drawn order, no id of the item).
 */
import { InvalidInputError } from "@/lib/errors";
import { mulberry32, seededShuffle } from "@/lib/random";
import type { AttentionCheck, CampaignKindDef, ParsedItem } from "../kinds";

/** Most checks one campaign stores: a participant meets each at most once, so this bounds checks per person. */
export const MAX_ATTENTION_ITEMS = 200;

export type AttentionItem = ParsedItem & { gold: Record<string, string>; attention: AttentionCheck["check"] };

/**
 * Enough checks that a participant who labels every item meets fresh ones at the set rate (a share r of
 * what they are served: r / (1 - r) per real item), at least two so the variants alternate.
 */
export function attentionCount(items: number, rate: number): number {
  if (rate <= 0 || items === 0) return 0;
  return Math.min(MAX_ATTENTION_ITEMS, Math.max(2, Math.ceil((items * rate) / (1 - rate)) + 1));
}

export function makeAttentionItems(
  def: CampaignKindDef,
  items: readonly ParsedItem[],
  rate: number,
  seed: number,
  takenIds: ReadonlySet<string>,
): AttentionItem[] {
  const n = attentionCount(items.length, rate);
  if (n === 0) return [];
  if (!def.attentionCheck)
    throw new InvalidInputError(
      `crowd.attentionRate: ${def.kind} campaigns have no automatic attention checks; set it to 0 or use gold items`,
    );
  const rng = mulberry32(seed + 7919);
  const order = seededShuffle(items, seed + 104729);
  const out: AttentionItem[] = [];
  for (let i = 0; out.length < n && i < n * 2; i++) {
    const source = order[i % order.length];
    const made = def.attentionCheck(source, out.length, rng);
    if (!made) continue;
    // Researchers read the id (never a participant): it says what the check is and which item it came from.
    let externalId = `attention-${out.length + 1}~${source.externalId}`.slice(0, 200);
    while (takenIds.has(externalId)) externalId += "'";
    out.push({ externalId, content: made.content, outputs: made.outputs, gold: made.gold, attention: made.check });
  }
  return out;
}
