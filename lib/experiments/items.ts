/** Per-item views of an experiment: the job list and one job's drill-down with every score row. */
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, jobScores } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { getTask } from "@/lib/tasks/registry";
import { PAIR_SEP } from "./create";
import { getExperimentRow } from "./control";

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

/** The one number the Items table sorts by, per scorer: the metric each task's table leads with. */
const PRIMARY: Array<[scorer: string, metric: string, label: string]> = [
  // An item's own points, not the tables' × 50 scale (docs/experiments.md, "Metric legends").
  ["gscore", "gscore", "G-Score points (0-2)"],
  ["selection", "selection", "S-Score points (−2..2)"],
  ["rouge", "rougeL", "ROUGE-L"],
];

export type ItemRow = {
  id: number;
  itemKey: string;
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

export const ITEM_ROWS_MAX = 5000;

/** Every job of an experiment (up to ITEM_ROWS_MAX) with its leading score, for the filterable Items table. */
export function listItemRows(db: Db, experimentId: number): { rows: ItemRow[]; total: number } {
  getExperimentRow(db, experimentId);
  const all = listJobs(db, experimentId, { limit: ITEM_ROWS_MAX });
  const total = db.select({ n: count() }).from(jobs).where(eq(jobs.experimentId, experimentId)).get()?.n ?? 0;
  const scores = db
    .select({ jobId: jobScores.jobId, scorer: jobScores.scorer, values: jobScores.values })
    .from(jobScores)
    .innerJoin(jobs, eq(jobs.id, jobScores.jobId))
    .where(eq(jobs.experimentId, experimentId))
    .orderBy(asc(jobScores.version))
    .all();
  const latest = new Map<number, Map<string, Record<string, number | null>>>();
  for (const s of scores) {
    const m = latest.get(s.jobId) ?? new Map<string, Record<string, number | null>>();
    m.set(s.scorer, s.values);
    latest.set(s.jobId, m);
  }
  const rows = all.map((j) => {
    const m = latest.get(j.id);
    let score: number | null = null;
    let scoreLabel: string | null = null;
    if (m?.has("faireval")) {
      const v = m.get("faireval")!;
      const outcomes = Object.entries(v).filter(([k, x]) => !/Mean[AB]$/.test(k) && typeof x === "number");
      if (outcomes.length) {
        score = outcomes.reduce((s, [, x]) => s + (x as number), 0);
        scoreLabel = "W/T/L sum";
      }
    } else if (m) {
      for (const [scorer, metric, label] of PRIMARY) {
        const x = m.get(scorer)?.[metric];
        if (typeof x === "number") {
          score = x;
          scoreLabel = label;
          break;
        }
      }
    }
    return { ...j, score, scoreLabel };
  });
  return { rows, total };
}
