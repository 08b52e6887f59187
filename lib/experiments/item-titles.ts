/**
 * Item titles: what a person reads for a job's item instead of its key. A PAL-Set item is its topic's user
 * query, a HiCUPID item its question, followed by whose it is ("(user 0000)"), clipped. Computed when the
 * jobs are created (./prepare.ts) and stored on the job row, so no page reads the data set to show them;
 * the jobs from before titles got theirs in the migration (0027); a job written without one gets it when
 * its row is first shown in the Items table.
 */
import type { Db } from "@/db/client";

export const TITLE_MAX = 120;

/** Text on one line, clipped to TITLE_MAX characters (on a word boundary when one is near). */
export function clipTitle(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= TITLE_MAX) return flat;
  const cut = flat.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > TITLE_MAX * 0.7 ? cut.slice(0, space) : cut}…`;
}

/** The query or question clipped (clipTitle), then the user. Campaign items use the same rule (lib/annotation/item-title.ts). */
export function formatTitle(text: string, userKey: string): string {
  const body = clipTitle(text);
  return body ? `${body} (user ${userKey})` : "";
}

/**
 * A title finder for one data set: one indexed look-up per distinct item (a job's item repeats across
 * methods and runs, so each is read once). "" for an item the data set does not hold.
 */
export function itemTitler(db: Db, datasetId: number, kind: string): (itemKey: string) => string {
  const memo = new Map<string, string>();
  const pal = db.$client.prepare(
    `SELECT t.user_query AS text FROM pal_users u
       JOIN pal_samples s ON s.user_id = u.id JOIN pal_topics t ON t.sample_id = s.id
     WHERE u.dataset_id = ? AND u.user_key = ? AND s.sample_key = ? AND t.topic_key = ?`,
  );
  const hc = db.$client.prepare(
    `SELECT q.question AS text FROM hc_users u JOIN hc_qa q ON q.user_id = u.id
     WHERE u.dataset_id = ? AND u.user_key = ? AND q.split = ? AND q.position = ?`,
  );
  const cm = db.$client.prepare(`SELECT question AS text FROM cm_qa WHERE dataset_id = ? AND item_key = ?`);
  return (itemKey) => {
    let title = memo.get(itemKey);
    if (title !== undefined) return title;
    const [userKey, a, b] = itemKey.split("/");
    const row = (
      kind === "palset"
        ? pal.get(datasetId, userKey, a ?? "", b ?? "")
        : kind === "hicupid"
          ? hc.get(datasetId, userKey, a ?? "", Number(b))
          : kind === "locomo" || kind === "longmemeval"
            ? cm.get(datasetId, itemKey)
            : undefined
    ) as { text: string } | undefined;
    title = row ? formatTitle(row.text, userKey) : "";
    memo.set(itemKey, title);
    return title;
  };
}

/**
 * Titles for the rows of one page whose job has none (written by code that gave none; the migration
 * filled the jobs from before titles): looked up and stored, so the cost is bounded by the page size.
 */
export function fillPageTitles<R extends { id: number; itemKey: string; title: string | null }>(
  db: Db,
  experimentId: number,
  rows: R[],
): Array<R & { title: string }> {
  const missing = rows.filter((r) => r.title === null);
  if (!missing.length) return rows as Array<R & { title: string }>;
  const ds = db.$client
    .prepare("SELECT d.id, d.kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?")
    .get(experimentId) as { id: number; kind: string };
  const titleOf = itemTitler(db, ds.id, ds.kind);
  const set = db.$client.prepare("UPDATE jobs SET title = ? WHERE id = ? AND title IS NULL");
  db.$client.transaction(() => missing.forEach((r) => set.run(titleOf(r.itemKey), r.id)))();
  return rows.map((r) => ({ ...r, title: r.title ?? titleOf(r.itemKey) }));
}

/** A page heading for one item: the stored title, looked up for a job from before titles, else the key. */
export function itemHeading(db: Db, experimentId: number, itemKey: string, stored?: string | null): string {
  if (stored) return stored;
  if (stored === "") return itemKey;
  const ds = db.$client
    .prepare("SELECT d.id, d.kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?")
    .get(experimentId) as { id: number; kind: string } | undefined;
  return (ds && itemTitler(db, ds.id, ds.kind)(itemKey)) || itemKey;
}
