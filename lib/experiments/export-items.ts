/**
 * `pal export experiment ID --items`: one JSON line per done job, for notebooks (shared/SPEC.md §4):
 * task, method, replicate, item, the item's category (LoCoMo) or question_type (LongMemEval) where it has
 * one, question where it has one, output (the answer string of a question task, else the task's output
 * object), reference, and scores as `{"<scorer>.<value>": number}` from each scorer's latest version.
 * Jobs are read in pages and each item's fields once per task, so memory stays bounded by the page.
 */
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { getTask } from "@/lib/tasks/registry";
import type { ExportItemFields } from "@/lib/tasks/types";

const PAGE = 500;

export type ItemLine = {
  task: string;
  method: string;
  replicate: number;
  item: string;
  category?: number;
  question_type?: string;
  question?: string;
  output: unknown;
  reference?: unknown;
  scores: Record<string, number>;
};

/** A question task's output ({answer}) is its answer string; any other output stays the task's object. */
function outputOf(raw: string | null): unknown {
  const v = raw === null ? null : (JSON.parse(raw) as unknown);
  if (v && typeof v === "object" && typeof (v as { answer?: unknown }).answer === "string") return (v as { answer: string }).answer;
  return v;
}

export async function exportExperimentItems(db: Db, experimentId: number, write: (line: string) => void | Promise<void>): Promise<number> {
  const c = db.$client;
  const exp = c.prepare("SELECT dataset_id AS datasetId FROM experiments WHERE id = ?").get(experimentId) as
    { datasetId: number } | undefined;
  if (!exp) throw new NotFoundError(`no experiment ${experimentId}`);
  const jobsPage = c.prepare(
    `SELECT id, task, method, replicate, item_key AS item, output FROM jobs
     WHERE experiment_id = ? AND status = 'done' AND id > ? ORDER BY id LIMIT ?`,
  );
  const scoresOf = c.prepare(
    `SELECT s.job_id AS jobId, s.scorer, s."values" AS v FROM job_scores s
     WHERE s.job_id IN (SELECT value FROM json_each(?))
       AND s.version = (SELECT max(version) FROM job_scores x WHERE x.job_id = s.job_id AND x.scorer = s.scorer)`,
  );
  const fields = new Map<string, ExportItemFields>();
  const fieldsOf = (task: string, item: string): ExportItemFields => {
    const key = `${task}\u0000${item}`;
    let f = fields.get(key);
    if (!f) {
      const t = getTask(task);
      f = t.exportItem ? t.exportItem(db, exp.datasetId, item) : {};
      // Bounded: items repeat across methods and replicates, which come in id order close together.
      if (fields.size > 20_000) fields.clear();
      fields.set(key, f);
    }
    return f;
  };
  let after = 0;
  let n = 0;
  for (;;) {
    const jobs = jobsPage.all(experimentId, after, PAGE) as Array<{
      id: number;
      task: string;
      method: string;
      replicate: number;
      item: string;
      output: string | null;
    }>;
    if (!jobs.length) break;
    const scores = new Map<number, Record<string, number>>();
    for (const s of scoresOf.all(JSON.stringify(jobs.map((j) => j.id))) as Array<{ jobId: number; scorer: string; v: string }>) {
      const out = scores.get(s.jobId) ?? {};
      for (const [k, x] of Object.entries(JSON.parse(s.v) as Record<string, unknown>))
        if (typeof x === "number" && Number.isFinite(x)) out[`${s.scorer}.${k}`] = x;
      scores.set(s.jobId, out);
    }
    for (const j of jobs) {
      const f = fieldsOf(j.task, j.item);
      const line: ItemLine = {
        task: j.task,
        method: j.method,
        replicate: j.replicate,
        item: j.item,
        ...(f.category !== undefined ? { category: f.category } : {}),
        ...(f.question_type !== undefined ? { question_type: f.question_type } : {}),
        ...(f.question !== undefined ? { question: f.question } : {}),
        output: outputOf(j.output),
        ...(f.reference !== undefined ? { reference: f.reference } : {}),
        scores: scores.get(j.id) ?? {},
      };
      await write(JSON.stringify(line) + "\n");
      n++;
    }
    after = jobs[jobs.length - 1].id;
  }
  return n;
}
