/** Per-item views of an experiment: the job list and one job's drill-down with every score row. */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { JOB_STATUSES, jobs, jobScores, type JobStatus } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { containsText } from "@/lib/paging";
import { getTask } from "@/lib/tasks/registry";
import { PAIR_SEP } from "./create";
import { getExperimentRow } from "./control";
import { ensureScoreSums } from "./aggregates";
import { leadingScoreLabel } from "./task-sums";
import { fillPageTitles } from "./item-titles";
import { textMatch } from "./item-text";

export function listJobs(db: Db, experimentId: number, opts: { limit?: number; offset?: number } = {}) {
  return db
    .select({
      id: jobs.id,
      replicate: jobs.replicate,
      method: jobs.method,
      task: jobs.task,
      itemKey: jobs.itemKey,
      status: jobs.status,
      attempts: jobs.attempts,
      error: jobs.error,
      starred: jobs.starred,
    })
    .from(jobs)
    .where(eq(jobs.experimentId, experimentId))
    .orderBy(asc(jobs.phase), asc(jobs.task), asc(jobs.itemKey), asc(jobs.method), asc(jobs.replicate))
    .limit(opts.limit ?? 500)
    .offset(opts.offset ?? 0)
    .all();
}

export function getJob(db: Db, experimentId: number, jobId: number) {
  const job = db
    .select()
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.id, jobId)))
    .get();
  if (!job) throw new NotFoundError(`experiment ${experimentId} has no job ${jobId}`);
  const scores = db.select().from(jobScores).where(eq(jobScores.jobId, jobId)).orderBy(asc(jobScores.scorer), asc(jobScores.version)).all();
  return { job, scores };
}

export type Utterance = { role: string; content: string };

/**
 * Everything the drill-down shows: the job and its score rows, the item's user information and references,
 * and for a pairwise judgment the two dialogues it compared (the phase-0 outputs of both methods).
 */
export function jobDrillDown(db: Db, experimentId: number, jobId: number) {
  const { job, scores } = getJob(db, experimentId, jobId);
  const e = getExperimentRow(db, experimentId);
  const task = getTask(job.task);
  const info = task.describe ? task.describe(db, e.datasetId, job.itemKey) : [];
  let dialogues: Array<{ method: string; jobId: number | null; dialogue: Utterance[] }> | null = null;
  if (job.method.includes(PAIR_SEP)) {
    dialogues = job.method.split(PAIR_SEP).map((method) => {
      const j = db
        .select({ id: jobs.id, output: jobs.output })
        .from(jobs)
        .where(
          and(
            eq(jobs.experimentId, experimentId),
            eq(jobs.replicate, job.replicate),
            eq(jobs.method, method),
            eq(jobs.task, job.task),
            eq(jobs.itemKey, job.itemKey),
          ),
        )
        .get();
      return { method, jobId: j?.id ?? null, dialogue: (j?.output as { dialogue?: Utterance[] } | null)?.dialogue ?? [] };
    });
  }
  return { job, scores, info, dialogues };
}

export type ItemRow = {
  id: number;
  itemKey: string;
  /** The topic's query or the question, and whose it is (lib/experiments/item-titles.ts); "" if the item has none. */
  title: string;
  task: string;
  method: string;
  replicate: number;
  status: string;
  error: string | null;
  starred: boolean;
  /** The item's leading metric (G-Score, Selection, ROUGE-L; a pair: the sum of its dimensions' outcomes, +1 win, -1 lose). */
  score: number | null;
  scoreLabel: string | null;
};

export const ITEM_SORTS = ["plan", "item", "task", "method", "run", "status", "score", "starred"] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

const itemQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
  task: z.string().max(100).optional(),
  method: z.string().max(300).optional(),
  status: z.enum(JOB_STATUSES).optional(),
  q: z.string().max(200).optional(),
  min: z.coerce.number().finite().optional(),
  max: z.coerce.number().finite().optional(),
  sort: z.enum(ITEM_SORTS).default("plan"),
  dir: z.enum(["asc", "desc"]).default("asc"),
});
export type ItemQuery = z.input<typeof itemQuery>;

/** One page of the Items table, the filters' choices (from the running sums) and the counts. */
export type ItemPage = {
  rows: ItemRow[];
  /** Jobs of the experiment; `filtered`: those the filters keep. */
  total: number;
  filtered: number;
  page: number;
  size: number;
  choices: { task: string[]; method: string[]; status: string[] };
};

/** URL search parameters of the items API (`?task=…&page=2&sort=score&dir=desc`), each bad one named. */
export function parseItemQuery(params: URLSearchParams): ItemQuery {
  const raw: Record<string, string> = {};
  for (const k of ["page", "size", "task", "method", "status", "q", "min", "max", "sort", "dir"]) {
    const v = params.get(k);
    if (v !== null && v !== "") raw[k] = v;
  }
  const r = itemQuery.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`${i.path.join(".")}: ${i.message}`);
  }
  return r.data;
}

const ORDER: Record<ItemSort, string> = {
  plan: "id",
  item: "item_key",
  task: "task",
  method: "method",
  run: "replicate",
  status: "status",
  score: "score",
  starred: "starred",
};

/**
 * One page of an experiment's jobs for the Items table, filtered and sorted in SQL (a page of 50 rows is
 * read, never the whole experiment): by task, method, status, text and a score range (jobs.score,
 * indexed); counts without a text or score filter come from the running sums. The text matches the words
 * of the item's title (topic, question) or replies through the job_text FTS5 index, or the item key.
 */
export function listItemRows(db: Db, experimentId: number, query: ItemQuery = {}): ItemPage {
  getExperimentRow(db, experimentId);
  const q = itemQuery.parse(query);
  // An experiment from before the running sums gets its scores summed (and jobs.score written) once.
  const groups = ensureScoreSums(db, experimentId);
  const where = [sql`experiment_id = ${experimentId}`];
  if (q.task) where.push(sql`task = ${q.task}`);
  if (q.method) where.push(sql`method = ${q.method}`);
  if (q.status) where.push(sql`status = ${q.status}`);
  if (q.q?.trim()) where.push(textMatch(experimentId, q.q.trim(), containsText(sql.raw("item_key"), q.q.trim())));
  if (q.min !== undefined) where.push(sql`score >= ${q.min}`);
  if (q.max !== undefined) where.push(sql`score <= ${q.max}`);
  const cond = sql.join(where, sql` AND `);
  const count = (gs: typeof groups, status?: string) =>
    gs.reduce((n, g) => n + (status ? g[status as JobStatus] : g.queued + g.running + g.done + g.failed + g.cancelled + g.skipped), 0);
  const total = count(groups);
  const filtered =
    q.q?.trim() || q.min !== undefined || q.max !== undefined
      ? (db.get<{ n: number }>(sql`SELECT count(*) AS n FROM jobs WHERE ${cond}`)?.n ?? 0)
      : count(
          groups.filter((g) => (!q.task || g.task === q.task) && (!q.method || g.method === q.method)),
          q.status,
        );
  const dir = sql.raw(q.dir === "desc" ? "DESC" : "ASC");
  // A job without a score sorts last either way; ties keep the plan's order.
  const order = q.sort === "score" ? sql`score IS NULL, score ${dir}, id` : sql`${sql.raw(ORDER[q.sort])} ${dir}, id`;
  const offset = (q.page - 1) * q.size;
  // The page's ids first, from the jobs_items index alone (it holds every column filtered or sorted on),
  // then those rows: the jobs' rows are large (inputs, outputs), the index entries small.
  const ids = db
    .all<{ id: number }>(sql`SELECT id FROM jobs WHERE ${cond} ORDER BY ${order} LIMIT ${q.size} OFFSET ${offset}`)
    .map((r) => r.id);
  const byId = new Map(
    db
      .all<Omit<ItemRow, "scoreLabel" | "starred" | "title"> & { starred: number; title: string | null }>(
        sql`SELECT id, item_key AS itemKey, title, task, method, replicate, status, error, starred, score FROM jobs
            WHERE id IN (${sql.join(
              ids.map((i) => sql`${i}`),
              sql`, `,
            )})`,
      )
      .map((r) => [r.id, r]),
  );
  // A job written without a title gets it here, a page at a time.
  const rows = fillPageTitles(
    db,
    experimentId,
    ids.map((i) => byId.get(i)!),
  );
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return {
    rows: rows.map((r) => ({
      ...r,
      starred: Boolean(r.starred),
      scoreLabel: r.score === null ? null : leadingScoreLabel(r.task, r.method.includes(PAIR_SEP)),
    })),
    total,
    filtered,
    page: q.page,
    size: q.size,
    // Every status, not only those seen so far: while a run is watched "done" is a choice before the first job is.
    choices: { task: uniq(groups.map((g) => g.task)), method: uniq(groups.map((g) => g.method)), status: [...JOB_STATUSES] },
  };
}
