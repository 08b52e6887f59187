/**
 * Read model of a HiCUPID data set for the browse pages. Every list is filtered, sorted and paged in
 * SQL; each function runs a fixed number of queries (no per-row queries), all on indexed columns:
 * hc_users (dataset_id, user_key), hc_dialogues (user_id, ...), hc_turns (dialogue_id, position),
 * hc_qa (dataset_id, split, type), (dataset_id, position) and (user_id).
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { HC_TYPES, hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";

import { containsText, pageWindow, type Paged } from "@/lib/paging";

export type { Paged };

// ---- users ----

export const HC_USER_SORTS = ["position", "userKey", "dialogues", "turns", "qa", "persona", "profile", "schedule"] as const;
export type HcUserSort = (typeof HC_USER_SORTS)[number];

export type HcUserListOptions = {
  /** Default `position` (file order). `userKey` puts numeric keys in numeric order. */
  sort?: HcUserSort;
  dir?: "asc" | "desc";
  /** Substring of the user key, case-insensitive. */
  filter?: string;
  /** From 1. */
  page?: number;
  /** Default 50, at most 500. */
  pageSize?: number;
};

/** `persona`, `profile`, `schedule`: the user's dialogues of that type (their history's make-up: 25/5/10 in the published set). */
export type HcUserRow = {
  userKey: string;
  position: number;
  dialogues: number;
  turns: number;
  qa: number;
  persona: number;
  profile: number;
  schedule: number;
};

const userColumns = {
  userKey: hcUsers.userKey,
  position: hcUsers.position,
  dialogues: hcUsers.dialogueCount,
  turns: hcUsers.turnCount,
  qa: hcUsers.qaCount,
  persona: hcUsers.personaDialogues,
  profile: hcUsers.profileDialogues,
  schedule: hcUsers.scheduleDialogues,
};

function userOrder(sort: HcUserSort, dir: "asc" | "desc"): SQL[] {
  const by = dir === "desc" ? desc : asc;
  if (sort === "userKey") return [by(sql`cast(${hcUsers.userKey} as integer)`), by(hcUsers.userKey)];
  // Ties keep file order, so paging is stable.
  return sort === "position" ? [by(hcUsers.position)] : [by(userColumns[sort]), asc(hcUsers.position)];
}

export function listHcUsers(db: Db, datasetId: number, opts: HcUserListOptions = {}): Paged<HcUserRow> {
  const { page, pageSize, offset } = pageWindow(opts.page, opts.pageSize);
  const sort = HC_USER_SORTS.includes(opts.sort as HcUserSort) ? (opts.sort as HcUserSort) : "position";
  const filter = opts.filter?.trim();
  const where = and(eq(hcUsers.datasetId, datasetId), filter ? containsText(hcUsers.userKey, filter) : undefined);
  const rows = db
    .select(userColumns)
    .from(hcUsers)
    .where(where)
    .orderBy(...userOrder(sort, opts.dir === "desc" ? "desc" : "asc"))
    .limit(pageSize)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(hcUsers).where(where).get()?.n ?? 0;
  return { rows, total, page, pageSize };
}

// ---- one user ----

export type HcTurn = { position: number; user: string; assistant: string; extra: Record<string, unknown> | null };

export type HcDialogue = {
  id: number;
  dialogueKey: string;
  split: string;
  /** Order in the user's history. */
  position: number;
  type: string | null;
  metadata: unknown;
  turns: HcTurn[];
};

export type HcUserDetail = HcUserRow & {
  /** The history in order, and the same dialogues grouped by type (`other`: unknown or unusual types). */
  history: HcDialogue[];
  byType: Record<(typeof HC_TYPES)[number] | "other", HcDialogue[]>;
};

export function getHcUser(db: Db, datasetId: number, userKey: string): HcUserDetail | null {
  const user = db
    .select({ id: hcUsers.id, ...userColumns })
    .from(hcUsers)
    .where(and(eq(hcUsers.datasetId, datasetId), eq(hcUsers.userKey, userKey)))
    .get();
  if (!user) return null;

  const history = loadDialogues(db, eq(hcDialogues.userId, user.id));
  const byType: HcUserDetail["byType"] = { persona: [], profile: [], schedule: [], other: [] };
  for (const d of history) {
    const key = (HC_TYPES as readonly string[]).includes(d.type ?? "") ? (d.type as (typeof HC_TYPES)[number]) : "other";
    byType[key].push(d);
  }
  const { id: _id, ...row } = user;
  return { ...row, history, byType };
}

// ---- QA pairs ----

export type HcQaListOptions = {
  userKey?: string;
  type?: string;
  split?: string;
  page?: number;
  pageSize?: number;
};

export type HcQaItem = {
  id: number;
  userKey: string;
  split: string;
  /** Order in the data set (file order). */
  position: number;
  type: string;
  question: string;
  personalizedAnswer: string;
  generalAnswer: string;
  /** Relevant dialogue keys (hc_dialogues.dialogue_key of the same user). */
  dialogueIds: string[];
  /** Judge-only (persona / profile / schedule): never for an assistant prompt. */
  metadata: unknown;
  extra: Record<string, unknown> | null;
};

export function listHcQa(db: Db, datasetId: number, opts: HcQaListOptions = {}): Paged<HcQaItem> {
  const { page, pageSize, offset } = pageWindow(opts.page, opts.pageSize);
  // The user's id first, so the pairs are found through hc_qa_user rather than by scanning the set.
  let userId: number | undefined;
  if (opts.userKey !== undefined) {
    userId = db
      .select({ id: hcUsers.id })
      .from(hcUsers)
      .where(and(eq(hcUsers.datasetId, datasetId), eq(hcUsers.userKey, opts.userKey)))
      .get()?.id;
    if (userId === undefined) return { rows: [], total: 0, page, pageSize };
  }
  const where = and(
    // A user id implies its data set; naming both would tempt SQLite into the (dataset, position) index.
    userId !== undefined ? eq(hcQa.userId, userId) : eq(hcQa.datasetId, datasetId),
    opts.split ? eq(hcQa.split, opts.split) : undefined,
    opts.type ? eq(hcQa.type, opts.type) : undefined,
  );
  const rows = db
    .select({
      id: hcQa.id,
      userKey: hcUsers.userKey,
      split: hcQa.split,
      position: hcQa.position,
      type: hcQa.type,
      question: hcQa.question,
      personalizedAnswer: hcQa.personalizedAnswer,
      generalAnswer: hcQa.generalAnswer,
      dialogueIds: hcQa.dialogueIds,
      metadata: hcQa.metadata,
      extra: hcQa.extra,
    })
    .from(hcQa)
    .innerJoin(hcUsers, eq(hcQa.userId, hcUsers.id))
    .where(where)
    .orderBy(asc(hcQa.position))
    .limit(pageSize)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(hcQa).where(where).get()?.n ?? 0;
  return {
    rows: rows.map((r) => ({ ...r, dialogueIds: Array.isArray(r.dialogueIds) ? r.dialogueIds.map(String) : [], extra: r.extra ?? null })),
    total,
    page,
    pageSize,
  };
}

/** QA counts by split and type, for the filter controls. */
export function hcQaFacets(db: Db, datasetId: number): { split: string; type: string; count: number }[] {
  return db
    .select({ split: hcQa.split, type: hcQa.type, count: count() })
    .from(hcQa)
    .where(eq(hcQa.datasetId, datasetId))
    .groupBy(hcQa.split, hcQa.type)
    .orderBy(asc(hcQa.split), asc(hcQa.type))
    .all();
}

/** Some dialogues of one user (e.g. a QA pair's relevant ones), in history order, turns included. */
export function getHcDialogues(db: Db, datasetId: number, userKey: string, dialogueKeys: string[]): HcDialogue[] {
  if (dialogueKeys.length === 0) return [];
  const user = db
    .select({ id: hcUsers.id })
    .from(hcUsers)
    .where(and(eq(hcUsers.datasetId, datasetId), eq(hcUsers.userKey, userKey)))
    .get();
  if (!user) return [];
  return loadDialogues(db, and(eq(hcDialogues.userId, user.id), inArray(hcDialogues.dialogueKey, dialogueKeys))!);
}

/** Dialogues matching `where` (always narrowed to one user) and their turns: two queries. */
function loadDialogues(db: Db, where: SQL): HcDialogue[] {
  const dialogues = db
    .select({
      id: hcDialogues.id,
      dialogueKey: hcDialogues.dialogueKey,
      split: hcDialogues.split,
      position: hcDialogues.position,
      type: hcDialogues.type,
      metadata: hcDialogues.metadata,
    })
    .from(hcDialogues)
    .where(where)
    .orderBy(asc(hcDialogues.position))
    .all();
  const turns = db
    .select({
      dialogueId: hcTurns.dialogueId,
      position: hcTurns.position,
      user: hcTurns.user,
      assistant: hcTurns.assistant,
      extra: hcTurns.extra,
    })
    .from(hcTurns)
    .innerJoin(hcDialogues, eq(hcTurns.dialogueId, hcDialogues.id))
    .where(where)
    .orderBy(asc(hcTurns.dialogueId), asc(hcTurns.position))
    .all();
  const out: HcDialogue[] = dialogues.map((d) => ({ ...d, turns: [] }));
  const byId = new Map(out.map((d) => [d.id, d]));
  for (const { dialogueId, ...t } of turns) byId.get(dialogueId)?.turns.push({ ...t, extra: t.extra ?? null });
  return out;
}
