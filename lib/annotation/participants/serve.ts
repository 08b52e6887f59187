/**
 * Items handed out as people work (campaigns with assignment "dynamic"). Whoever asks next gets the
 * least-labelled item they have not seen (or, with order "most-disagreement", the one whose labels so far
 * disagree most), held for them for `holdSeconds`; an item counts toward its k while it is done or held,
 * so a held item abandoned by someone who left goes back when the hold lapses. Gold items and attention
 * checks are mixed in at the campaign's rates and never count toward k. Every claim runs in
 * one IMMEDIATE transaction (the write lock taken before reading), so two processes serving at once
 * cannot both give out the last slot of an item: k is never exceeded, and the unique index on
 * (item, annotator) means nobody gets one item twice.
 */
import crypto from "node:crypto";
import { and, count, eq, gt, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assignments, campaignItems, campaigns, labels, participants } from "@/db/schema";
import { prepared, stmt, transact } from "@/db/statements";
import { hashSeed } from "@/lib/random";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { kindDef } from "../kinds";
import { crowdSettingsOf } from "./settings";

export type NextWork =
  | { state: "item"; assignmentId: number }
  /** The participant's quota is reached, or nothing is left for them: the finish step decides the code. */
  | { state: "quota" }
  | { state: "no-work" }
  | { state: "finished"; status: "completed" | "screened-out" }
  | { state: "closed" };

/** An item's slots in use: its done labels and its holds still running (SQL over the outer `item_id`). */
const liveCount = (itemCol: unknown, now: unknown, exceptUser?: number) =>
  sql<number>`(select count(*) from ${assignments} a2 where a2.item_id = ${itemCol} and (a2.status = 'done' or (a2.status = 'pending' and a2.held_until > ${now}))${
    exceptUser === undefined ? sql`` : sql` and a2.annotator_id <> ${exceptUser}`
  })`;

type Head = {
  status: "active" | "completed" | "screened-out";
  campaignId: number;
  open: number;
  crowd: string | null;
  perItem: number;
  kind: string;
};
type Own = {
  id: number;
  itemId: number;
  status: "pending" | "done" | "skipped";
  heldUntil: number | null;
  gold: string | null;
  attention: string | null;
};

/**
 * The participant's current item, or a newly claimed one, or why there is none. Every work page and /next
 * asks this, so the reads and the hold's renewal are prepared statements (db/statements.ts), one
 * participant-and-campaign read instead of two, in the one IMMEDIATE transaction as before.
 */
export function nextWork(db: Db, userId: number, now = Date.now()): NextWork {
  return transact(
    db,
    (): NextWork => {
      const p = stmt(
        db,
        "select p.status as status, p.campaign_id as campaignId, c.status = 'open' as open, c.crowd as crowd, c.per_item as perItem, c.kind as kind from participants p join campaigns c on c.id = p.campaign_id where p.user_id = ?",
      ).get(userId) as Head | undefined;
      if (!p) throw new NotFoundError("you have not joined a study");
      if (p.status !== "active") return { state: "finished", status: p.status };
      if (!p.open) return { state: "closed" };
      const c = { id: p.campaignId, perItem: p.perItem, kind: p.kind };
      const s = crowdSettingsOf(p.crowd === null ? null : (JSON.parse(p.crowd) as Record<string, unknown>));
      const holdUntil = now + s.holdSeconds * 1000;
      const own = (
        stmt(
          db,
          "select a.id as id, a.item_id as itemId, a.status as status, a.held_until as heldUntil, ci.gold as gold, ci.attention as attention from assignments a join campaign_items ci on ci.id = a.item_id where a.annotator_id = ?",
        ).all(userId) as Own[]
      ).map((a) => ({ ...a, gold: a.gold === null ? null : (JSON.parse(a.gold) as Record<string, string> | null) }));
      // An item already in hand: kept (its hold renewed) while its slot is still free for this participant.
      for (const a of own.filter((x) => x.status === "pending")) {
        if (a.gold || (a.heldUntil ?? 0) > now || slotsTaken(db, a.itemId, now, userId) < c.perItem) {
          stmt(db, "update assignments set held_until = ? where id = ?").run(holdUntil, a.id);
          return { state: "item", assignmentId: a.id };
        }
        // Lapsed, and others filled the item meanwhile: it is no longer this participant's.
        db.delete(assignments).where(eq(assignments.id, a.id)).run();
      }
      const finishedCount = own.filter((x) => x.status !== "pending").length;
      if (s.quota !== null && finishedCount >= s.quota) return { state: "quota" };
      const goldSeen = own.filter((x) => x.gold && !x.attention).length;
      const attentionSeen = own.filter((x) => x.attention).length;
      const pick = (what: Pool) => pickItem(db, c.id, userId, now, c.perItem, what, s.order);
      let itemId: number | undefined;
      // Gold at the set rate: the next item is gold when that keeps the share of gold at most the rate.
      if (s.goldRate > 0 && goldSeen + 1 <= (own.length + 1) * s.goldRate) itemId = pick("gold");
      // Attention checks at theirs, at a phase drawn per participant: no fixed "every tenth item" to learn.
      if (itemId === undefined && s.attentionRate > 0) {
        const phase = hashSeed(`${userId}|attention`) / 2 ** 32;
        if (attentionSeen < Math.floor((own.length + 1) * s.attentionRate + phase)) itemId = pick("attention");
      }
      itemId ??= pick("real");
      if (itemId === undefined) return { state: "no-work" };
      const position = own.length;
      const pairwise = kindDef(c.kind).pairwise;
      const row = stmt(
        db,
        "insert into assignments (campaign_id, item_id, annotator_id, position, swapped, held_until) values (?, ?, ?, ?, ?, ?) returning id",
      ).get(c.id, itemId, userId, position, pairwise && crypto.randomInt(2) === 1 ? 1 : 0, holdUntil) as { id: number };
      return { state: "item", assignmentId: row.id };
    },
    "immediate",
  );
}

function slotsTaken(db: Db, itemId: number, now: number, exceptUser: number): number {
  return db
    .select({ n: count() })
    .from(assignments)
    .where(
      and(
        eq(assignments.itemId, itemId),
        ne(assignments.annotatorId, exceptUser),
        or(eq(assignments.status, "done"), and(eq(assignments.status, "pending"), gt(assignments.heldUntil, now))),
      ),
    )
    .get()!.n;
}

type Pool = "real" | "gold" | "attention";

const doneCount = (itemCol: unknown) =>
  sql<number>`(select count(*) from ${assignments} a3 where a3.item_id = ${itemCol} and a3.status = 'done')`;

/**
 * How much an item's done labels disagree: per dimension, the labels that differ from its most common
 * value, summed (0 while unanimous or unlabelled). Bounded by the item's labels (at most k per dimension).
 */
const dissent = (itemCol: unknown) =>
  sql<number>`(select coalesce(sum(d.n - d.top), 0) from (select sum(v.c) as n, max(v.c) as top from (select l4.dimension as dim, l4.value as value, count(*) as c from ${labels} l4 join ${assignments} a4 on a4.id = l4.assignment_id where a4.item_id = ${itemCol} and a4.status = 'done' group by l4.dimension, l4.value) v group by v.dim) d)`;

/**
 * The next item of a pool this participant never had: real items while below k, least-labelled first or
 * most-disagreement first (then fewest labels), then the campaign's order.
 */
function pickItem(
  db: Db,
  campaignId: number,
  userId: number,
  now: number,
  k: number,
  pool: Pool,
  order: "least-labelled" | "most-disagreement",
): number | undefined {
  // Built and prepared once per connection and variant (drizzle's builder cost more than the claim's SQL), then run with this claim's values.
  return prepared(db, `participants.pick|${pool}|${order}`, () => pickQuery(db, pool, order)).get({ campaignId, userId, now, k })?.id;
}

function pickQuery(db: Db, pool: Pool, order: "least-labelled" | "most-disagreement") {
  const [campaignId, userId, now, k] = (["campaignId", "userId", "now", "k"] as const).map((n) => sql.placeholder(n));
  return db
    .select({ id: campaignItems.id })
    .from(campaignItems)
    .where(
      and(
        eq(campaignItems.campaignId, campaignId),
        pool === "real"
          ? sql`${campaignItems.gold} is null`
          : pool === "gold"
            ? and(isNotNull(campaignItems.gold), sql`${campaignItems.attention} is null`)
            : isNotNull(campaignItems.attention),
        sql`not exists (select 1 from ${assignments} a1 where a1.item_id = ${campaignItems.id} and a1.annotator_id = ${userId})`,
        pool === "real" ? sql`${liveCount(campaignItems.id, now)} < ${k}` : undefined,
      ),
    )
    .orderBy(
      // Only an item with two done labels can disagree: the dissent subquery runs for those alone (cheap index counts for the rest).
      ...(pool === "real" && order === "most-disagreement"
        ? [sql`case when ${doneCount(campaignItems.id)} >= 2 then ${dissent(campaignItems.id)} else 0 end desc`]
        : []),
      doneCount(campaignItems.id),
      campaignItems.position,
    )
    .limit(1)
    .prepare();
}

/**
 * Inside a submission's transaction: a participant whose hold lapsed, or who skipped the item (a skip
 * gives its slot back: it goes to the next participant), may still submit while the item has a free
 * slot; once others filled it, the label would exceed k and is refused. A done item is already counted.
 */
export function assertSlotForSubmit(
  db: Db,
  a: { id: number; itemId: number; annotatorId: number; status: string; heldUntil: number | null; campaignId: number },
  now = Date.now(),
): void {
  if (a.status === "done") return;
  if (a.status === "pending" && (a.heldUntil === null || a.heldUntil > now)) return;
  const c = db
    .select({ perItem: campaigns.perItem, assignment: campaigns.assignment })
    .from(campaigns)
    .where(eq(campaigns.id, a.campaignId))
    .get();
  if (c?.assignment !== "dynamic") return;
  const gold = db.select({ gold: campaignItems.gold }).from(campaignItems).where(eq(campaignItems.id, a.itemId)).get()?.gold;
  if (gold) return;
  if (slotsTaken(db, a.itemId, now, a.annotatorId) >= c.perItem)
    throw new ConflictError("this item was held for you too long and others have labelled it meanwhile; go on to the next item");
}

/** How many participants have joined a campaign (for the cap and the campaign page). */
export function participantCount(db: Db, campaignId: number): number {
  return db.select({ n: count() }).from(participants).where(eq(participants.campaignId, campaignId)).get()!.n;
}
