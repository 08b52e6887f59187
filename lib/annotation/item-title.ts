/**
 * An item's title as researchers read it in lists (disagreements, the items table): the topic or the
 * question it is about, and whose it is, instead of an id such as "0000/0000_sample5/topic-1". Made once
 * when the item is created (campaign_items.title), so listing never parses the item's content. The
 * clipping rule is the experiments' items' one (lib/experiments/item-titles.ts).
 */
import { clipTitle, formatTitle } from "@/lib/experiments/item-titles";

export function itemTitle(content: Record<string, unknown>, externalId: string): string {
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().replace(/\s+/g, " ") : null);
  // "<user>/<sample>[/<topic>]": PAL-Set keys start with the user.
  const user = /^[^/\s]+\/[^/\s]+/.test(externalId) ? externalId.split("/")[0] : null;
  const about = text(content.topic) ?? text(content.question);
  if (about) return user ? formatTitle(about, user) : clipTitle(about);
  const when = text(content.timestamp);
  if (user && when) return clipTitle(`user ${user}, session of ${when}`);
  return clipTitle(externalId);
}
