/**
 * Item titles: what a person reads for a job's item instead of its key. A PAL-Set item is its topic's user
 * query, a HiCUPID item its question, followed by whose it is ("(user 0000)"), clipped. Computed when the
 * jobs are created (./prepare.ts) and stored on the job row, so no page reads the data set to show them;
 * jobs from before titles get theirs once, the first time their experiment's items are listed.
 */
import type { Db } from "@/db/client";

export const TITLE_MAX = 120;

/** The query or question clipped to TITLE_MAX characters (on a word boundary when one is near), then the user. */
export function formatTitle(text: string, userKey: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return "";
  let body = flat;
  if (flat.length > TITLE_MAX) {
    const cut = flat.slice(0, TITLE_MAX - 1);
    const space = cut.lastIndexOf(" ");
    body = `${space > TITLE_MAX * 0.7 ? cut.slice(0, space) : cut}…`;
  }
  return `${body} (user ${userKey})`;
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
  return (itemKey) => {
    let title = memo.get(itemKey);
    if (title !== undefined) return title;
    const [userKey, a, b] = itemKey.split("/");
    const row = (
      kind === "palset"
        ? pal.get(datasetId, userKey, a ?? "", b ?? "")
        : kind === "hicupid"
          ? hc.get(datasetId, userKey, a ?? "", Number(b))
          : undefined
    ) as { text: string } | undefined;
    title = row ? formatTitle(row.text, userKey) : "";
    memo.set(itemKey, title);
    return title;
  };
}

/**
 * Fills the titles of an experiment's jobs from before titles, once: the partial index jobs_untitled makes
 * the check free when there is nothing to fill. One transaction; a large experiment takes a few seconds once.
 */
export function ensureItemTitles(db: Db, experimentId: number): number {
  const untitled = db.$client.prepare("SELECT 1 FROM jobs WHERE experiment_id = ? AND title IS NULL LIMIT 1").get(experimentId);
  if (!untitled) return 0;
  const ds = db.$client
    .prepare("SELECT d.id, d.kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?")
    .get(experimentId) as { id: number; kind: string };
  const titleOf = itemTitler(db, ds.id, ds.kind);
  const rows = db.$client
    .prepare("SELECT id, item_key AS k FROM jobs WHERE experiment_id = ? AND title IS NULL")
    .all(experimentId) as Array<{
    id: number;
    k: string;
  }>;
  const set = db.$client.prepare("UPDATE jobs SET title = ? WHERE id = ?");
  db.$client.transaction(() => rows.forEach((r) => set.run(titleOf(r.k), r.id))).immediate();
  return rows.length;
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
