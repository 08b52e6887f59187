/**
 * An experiment's running sums, read by its page, its progress poll and `pal run` instead of every job:
 * per group (method × task × replicate × phase) the job counts by status (kept by SQLite triggers,
 * migration 0024) and the additive score statistics of its done jobs (./task-sums.ts), added here in the
 * transaction that stores a job's result, with the job's leading score (jobs.score, the Items table's
 * sort key). `scored` counts the jobs added: an experiment from before the sums (scored ≠ done) is summed
 * once in full by `ensureScoreSums`.
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { PAIR_SEP } from "./create";
import { addPair, leadingScore, MARGIN_KEYS, TASK_SUMS, type JobValues, type Sums } from "./task-sums";

export type GroupKey = { experimentId: number; method: string; task: string; replicate: number; phase: number };
export type Group = GroupKey & {
  queued: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
  skipped: number;
  scored: number;
};

/** What one done job adds to its group's sums. */
export function jobSums(task: string, method: string, v: JobValues): Sums {
  const out: Sums = {};
  if (method.includes(PAIR_SEP)) addPair(v, out);
  else TASK_SUMS[task]?.add(v, out);
  return out;
}

/** The latest version of each scorer of one job (later versions overwrite earlier ones). */
function latestOfJob(db: Db, jobId: number): JobValues {
  const rows = stmt(db, `SELECT scorer, "values" AS v FROM job_scores WHERE job_id = ? ORDER BY version`).all(jobId) as Array<{
    scorer: string;
    v: string;
  }>;
  const out: JobValues = {};
  for (const r of rows) out[r.scorer] = JSON.parse(r.v);
  return out;
}

const UPSERT_SUM = `INSERT INTO experiment_score_sums (experiment_id, method, task, replicate, phase, key, value) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (experiment_id, method, task, replicate, phase, key) DO UPDATE SET value = value + excluded.value`;
const GROUP_WHERE = "experiment_id = ? AND method = ? AND task = ? AND replicate = ? AND phase = ?";

function writeSums(db: Db, g: GroupKey, sums: Sums, jobs: number): void {
  const up = stmt(db, UPSERT_SUM);
  for (const [k, v] of Object.entries(sums)) up.run(g.experimentId, g.method, g.task, g.replicate, g.phase, k, v);
  stmt(db, `UPDATE experiment_groups SET scored = scored + ? WHERE ${GROUP_WHERE}`).run(
    jobs,
    g.experimentId,
    g.method,
    g.task,
    g.replicate,
    g.phase,
  );
}

/** Adds a job that just became done (its score rows written) to its group's sums; call it in that transaction. */
export function addDoneJob(db: Db, jobId: number, g: GroupKey): void {
  const v = latestOfJob(db, jobId);
  writeSums(db, g, jobSums(g.task, g.method, v), 1);
  stmt(db, "UPDATE jobs SET score = ? WHERE id = ?").run(leadingScore(v), jobId);
}

export function readGroups(db: Db, experimentId: number): Group[] {
  return stmt(
    db,
    `SELECT experiment_id AS experimentId, method, task, replicate, phase, queued, running, done, failed, cancelled, skipped, scored
     FROM experiment_groups WHERE experiment_id = ? ORDER BY phase, task, method, replicate`,
  ).all(experimentId) as Group[];
}

export const groupKey = (g: Omit<GroupKey, "experimentId">) => `${g.method}\u0000${g.task}\u0000${g.replicate}\u0000${g.phase}`;

/** Each group's score sums, by groupKey; the keys only an applied tie margin reads when `withMargin`. */
export function readScoreSums(db: Db, experimentId: number, withMargin = true): Map<string, Sums> {
  const rows = stmt(
    db,
    `SELECT method, task, replicate, phase, key, value FROM experiment_score_sums WHERE experiment_id = ?
     AND (? OR substr(key, 1, ${MARGIN_KEYS.length}) <> '${MARGIN_KEYS}')`,
  ).all(experimentId, withMargin ? 1 : 0) as Array<Omit<GroupKey, "experimentId"> & { key: string; value: number }>;
  const out = new Map<string, Sums>();
  for (const r of rows) {
    const k = groupKey(r);
    let s = out.get(k);
    if (!s) out.set(k, (s = {}));
    s[r.key] = r.value;
  }
  return out;
}

/**
 * Sums every done job of the experiment from its stored scores again (and its leading score), replacing
 * what was there: for an experiment from before the sums, and to check the running sums (tests, bench).
 */
export function rebuildScoreSums(db: Db, experimentId: number): void {
  db.$client.transaction(() => {
    stmt(db, "DELETE FROM experiment_score_sums WHERE experiment_id = ?").run(experimentId);
    stmt(db, "UPDATE experiment_groups SET scored = 0 WHERE experiment_id = ?").run(experimentId);
    const scores = stmt(
      db,
      `SELECT s.job_id AS jobId, s.scorer, s."values" AS v FROM job_scores s JOIN jobs j ON j.id = s.job_id
       WHERE j.experiment_id = ? AND j.status = 'done' ORDER BY s.version`,
    ).all(experimentId) as Array<{ jobId: number; scorer: string; v: string }>;
    const byJob = new Map<number, JobValues>();
    for (const s of scores) {
      let m = byJob.get(s.jobId);
      if (!m) byJob.set(s.jobId, (m = {}));
      m[s.scorer] = JSON.parse(s.v);
    }
    const done = stmt(
      db,
      "SELECT id, method, task, replicate, phase FROM jobs WHERE experiment_id = ? AND status = 'done' ORDER BY id",
    ).all(experimentId) as Array<Omit<GroupKey, "experimentId"> & { id: number }>;
    const groups = new Map<string, { g: GroupKey; sums: Sums; jobs: number }>();
    const setScore = stmt(db, "UPDATE jobs SET score = ? WHERE id = ?");
    for (const j of done) {
      const k = groupKey(j);
      let e = groups.get(k);
      if (!e) groups.set(k, (e = { g: { experimentId, ...j }, sums: {}, jobs: 0 }));
      const v = byJob.get(j.id) ?? {};
      for (const [key, x] of Object.entries(jobSums(j.task, j.method, v))) e.sums[key] = (e.sums[key] ?? 0) + x;
      e.jobs++;
      setScore.run(leadingScore(v), j.id);
    }
    for (const e of groups.values()) writeSums(db, e.g, e.sums, e.jobs);
  })();
}

/** Whether every done job is in the sums; when not (an experiment from before them), sums it once. */
export function ensureScoreSums(db: Db, experimentId: number, groups = readGroups(db, experimentId)): Group[] {
  if (groups.every((g) => g.scored === g.done)) return groups;
  rebuildScoreSums(db, experimentId);
  return readGroups(db, experimentId);
}

/**
 * Sums the experiments from before the running sums (any group with scored ≠ done), at server start, so
 * no page request has to; returns their ids.
 */
export function sumUnsummedExperiments(db: Db): number[] {
  const ids = (
    stmt(db, "SELECT DISTINCT experiment_id AS id FROM experiment_groups WHERE scored <> done").all() as Array<{ id: number }>
  ).map((r) => r.id);
  for (const id of ids) rebuildScoreSums(db, id);
  return ids;
}
