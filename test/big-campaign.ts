/**
 * A generated rating campaign of the size the agreement bench and reliability check use (issue 23:
 * 2,000 items × 30 annotators × 2 labels an item): users, an uploaded output-rating campaign, and labels
 * written straight into the database for a share of each annotator's queue (the rest left to submit),
 * and optionally judge runs with a rating of every item (issue 30.2: 15 runs on the same campaign).
 */
import type { Db } from "@/db/client";
import { createCampaign } from "@/lib/annotation/campaigns";
import { mulberry32 } from "@/lib/random";
import { createUser } from "@/lib/users/users";

export interface BigCampaign {
  campaignId: number;
  researchers: string[];
  annotators: Array<{ id: number; email: string }>;
  /** Per annotator (same order), the assignments still to submit. */
  open: number[][];
  labelled: number;
}

export async function seedRatingCampaign(
  db: Db,
  o: {
    items: number;
    annotators: number;
    perItem: number;
    labelledShare: number;
    researchers: number;
    password: string;
    prefix?: string;
    /** Judge runs (imported) rating every item, each close to the items' true value. */
    judgeRuns?: number;
  },
): Promise<BigCampaign> {
  const prefix = o.prefix ?? "big";
  const researchers: string[] = [];
  let researcherId = 0;
  for (let i = 0; i < o.researchers; i++) {
    const email = `${prefix}-r${i}@pal.local`;
    const u = await createUser(db, { email, role: "researcher", password: o.password });
    researcherId ||= u.id;
    researchers.push(email);
  }
  const annotators: BigCampaign["annotators"] = [];
  for (let i = 0; i < o.annotators; i++) {
    const email = `${prefix}-a${String(i).padStart(2, "0")}@pal.local`;
    annotators.push({ id: (await createUser(db, { email, role: "annotator", password: o.password })).id, email });
  }
  const lines = Array.from({ length: o.items }, (_, i) =>
    JSON.stringify({ id: `item-${i}`, context: { profile: `user ${i}`, question: `question ${i}` }, output: `answer ${i}` }),
  );
  const campaignId = createCampaign(
    db,
    {
      name: `${prefix} ratings`,
      kind: "output-rating",
      perItem: o.perItem,
      annotatorIds: annotators.map((a) => a.id),
      source: { kind: "upload", fileName: `${prefix}.jsonl`, text: lines.join("\n") },
    },
    researcherId,
  ).id;
  // Correlated ratings: each item has a true value; an annotator gives it three times in four.
  const rand = mulberry32(23);
  const truth = new Map<number, number>();
  const open: number[][] = [];
  let labelled = 0;
  const done = db.$client.prepare("UPDATE assignments SET status = 'done', ms_spent = ?, submitted_at = ?, submission_id = ? WHERE id = ?");
  const label = db.$client.prepare(
    "INSERT INTO labels (assignment_id, dimension, value, shown_value, swapped) VALUES (?, 'quality', ?, ?, 0)",
  );
  const t0 = Date.now() - 86_400_000;
  db.$client.transaction(() => {
    for (const a of annotators) {
      const mine = db.$client
        .prepare("SELECT id, item_id AS itemId FROM assignments WHERE annotator_id = ? AND campaign_id = ? ORDER BY position")
        .all(a.id, campaignId) as Array<{ id: number; itemId: number }>;
      const cut = Math.floor(mine.length * o.labelledShare);
      mine.slice(0, cut).forEach((x, k) => {
        if (!truth.has(x.itemId)) truth.set(x.itemId, 1 + Math.floor(rand() * 3));
        const t = truth.get(x.itemId)!;
        const v = String(rand() < 0.75 ? t : Math.min(3, Math.max(1, t + (rand() < 0.5 ? -1 : 1))));
        done.run(2000 + Math.floor(rand() * 8000), t0 + k * 1000, `seed-${x.id}-0000`, x.id);
        label.run(x.id, v, v);
        labelled++;
      });
      open.push(mine.slice(cut).map((x) => x.id));
    }
    const items = db.$client.prepare("SELECT id FROM campaign_items WHERE campaign_id = ? ORDER BY position").all(campaignId) as Array<{
      id: number;
    }>;
    const run = db.$client.prepare(
      "INSERT INTO judge_runs (campaign_id, name, origin, created_by, created_at) VALUES (?, ?, 'import', ?, ?)",
    );
    const verdict = db.$client.prepare("INSERT INTO judge_labels (run_id, item_id, dimension, value) VALUES (?, ?, 'quality', ?)");
    for (let r = 0; r < (o.judgeRuns ?? 0); r++) {
      const runId = Number(run.run(campaignId, `judge ${r + 1}`, researcherId, t0).lastInsertRowid);
      for (const it of items) {
        const t = truth.get(it.id) ?? 2;
        verdict.run(runId, it.id, String(rand() < 0.6 ? t : 1 + Math.floor(rand() * 3)));
      }
    }
  })();
  return { campaignId, researchers, annotators, open, labelled };
}
