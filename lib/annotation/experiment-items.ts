/**
 * Campaign items from a PAL Studio experiment: the finished dialogues of its `dialogue` task (two methods
 * on the same query topic → one pairwise item) or the answers of its `hicupid` task (a method's answer vs
 * the personalized reference; schedule questions, judged YES/NO, are left out) or the answers of its `locomo` /
 * `longmemeval` task (answer correctness: a method's answer beside the question and the reference). The method names go to
 * `campaign_systems` with the experiment as a foreign key; an item's content is only what annotators may
 * see (the user information the judges get, the question and metadata), never a method name.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { experiments, jobs } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { loadPalItem } from "@/lib/tasks/palset-items";
import { loadHcItem } from "@/lib/tasks/hicupid/items";
import { loadConvItem, referenceText } from "@/lib/tasks/convqa/items";
import type { ParsedItem } from "./kinds";

export interface ExperimentSourceSpec {
  experimentId: number;
  /** The method on side A (the one under study). */
  methodA: string;
  /** Pairwise dialogues: the method on side B. HiCUPID: side B is always the personalized reference. */
  methodB?: string;
  /** Which run of the experiment, as its replicate index (0 = run 1, the default). */
  replicate?: number;
}

export type ExperimentItems = {
  datasetId: number;
  items: ParsedItem[];
  systems: { A: { name: string; method: string | null }; B: { name: string; method: string | null } };
};

function experimentRow(db: Db, id: number) {
  const e = Number.isInteger(id) ? db.select().from(experiments).where(eq(experiments.id, id)).get() : undefined;
  if (!e) throw new NotFoundError(`source: no experiment with id ${id}`);
  return e;
}

function doneJobs(db: Db, experimentId: number, task: string, method: string, replicate: number) {
  return db
    .select({ itemKey: jobs.itemKey, output: jobs.output })
    .from(jobs)
    .where(
      and(
        eq(jobs.experimentId, experimentId),
        eq(jobs.task, task),
        eq(jobs.method, method),
        eq(jobs.replicate, replicate),
        eq(jobs.status, "done"),
      ),
    )
    .orderBy(asc(jobs.id))
    .all();
}

/** Pairwise dialogue items: every query topic both methods finished in this repeat. */
export function experimentDialogueItems(db: Db, spec: ExperimentSourceSpec): ExperimentItems {
  const e = experimentRow(db, spec.experimentId);
  const r = spec.replicate ?? 0;
  if (!spec.methodB) throw new InvalidInputError("source.methodB: choose the second method");
  if (spec.methodA === spec.methodB) throw new InvalidInputError("source.methodB: the two methods must differ");
  const b = new Map(doneJobs(db, e.id, "dialogue", spec.methodB, r).map((j) => [j.itemKey, j.output]));
  const items: ParsedItem[] = [];
  for (const ja of doneJobs(db, e.id, "dialogue", spec.methodA, r)) {
    const ob = b.get(ja.itemKey);
    const da = (ja.output as { dialogue?: unknown } | null)?.dialogue;
    const dB = (ob as { dialogue?: unknown } | null | undefined)?.dialogue;
    if (!Array.isArray(da) || !Array.isArray(dB)) continue;
    const it = loadPalItem(db, e.datasetId, ja.itemKey);
    // Structured, so annotators read labelled fields (the judge's prompt gets the same facts as text).
    const { personality, ...profile } = it.background ?? {};
    items.push({
      externalId: ja.itemKey,
      content: {
        topic: it.userQuery,
        // The same user information the pairwise dialogue judge gets, under its field names.
        userInfo: {
          background: Object.keys(profile).length ? profile : null,
          personality: personality ?? null,
          situation: it.situation,
          user_query: it.userQuery,
          implicit_needs: it.framework.needs,
          requirement: it.requirement,
          general_preference: it.generalPreference ?? { pos: [], neg: [] },
          solutions: it.framework.solutions,
        },
      },
      outputs: { A: { system: spec.methodA, output: da }, B: { system: spec.methodB, output: dB } },
    });
  }
  if (!items.length)
    throw new InvalidInputError(
      `source: experiment ${e.id} has no dialogue that both ${spec.methodA} and ${spec.methodB} finished (run ${r + 1})`,
    );
  return {
    datasetId: e.datasetId,
    items,
    systems: { A: { name: spec.methodA, method: spec.methodA }, B: { name: spec.methodB, method: spec.methodB } },
  };
}

/** HiCUPID A/B items: the method's answers to persona and profile questions against the personalized reference. */
export function experimentHicupidItems(db: Db, spec: ExperimentSourceSpec): ExperimentItems {
  const e = experimentRow(db, spec.experimentId);
  const r = spec.replicate ?? 0;
  const items: ParsedItem[] = [];
  for (const j of doneJobs(db, e.id, "hicupid", spec.methodA, r)) {
    const answer = (j.output as { answer?: unknown } | null)?.answer;
    if (typeof answer !== "string" || !answer.trim()) continue;
    const it = loadHcItem(db, e.datasetId, j.itemKey);
    if (it.type === "schedule") continue;
    items.push({
      externalId: j.itemKey,
      content: { question: it.question, metadata: it.metadata },
      outputs: { A: { system: spec.methodA, output: answer }, B: { system: "reference", output: it.personalizedAnswer } },
    });
  }
  if (!items.length)
    throw new InvalidInputError(`source: experiment ${e.id} has no finished persona or profile answer of ${spec.methodA} (run ${r + 1})`);
  return {
    datasetId: e.datasetId,
    items,
    systems: { A: { name: spec.methodA, method: spec.methodA }, B: { name: "reference", method: null } },
  };
}

/** The benchmark tasks whose answers an answer-correctness campaign judges. */
export const ANSWER_TASKS = ["locomo", "longmemeval"] as const;

/**
 * Answer-correctness items: the method's answers to the experiment's LoCoMo or LongMemEval questions, each with
 * the question and the reference (as the upload path stores them: `context` and `output`). The method is kept in
 * the campaign's config for researchers; the item holds no method, score or task name (annotators stay blind).
 */
export function experimentAnswerItems(db: Db, spec: ExperimentSourceSpec): ExperimentItems & { task: string } {
  const e = experimentRow(db, spec.experimentId);
  const r = spec.replicate ?? 0;
  if (spec.methodB) throw new InvalidInputError("source.methodB: answer-correctness items show one method's answers; leave side B empty");
  for (const task of ANSWER_TASKS) {
    const done = doneJobs(db, e.id, task, spec.methodA, r);
    if (!done.length) continue;
    const items: ParsedItem[] = [];
    for (const j of done) {
      const answer = (j.output as { answer?: unknown } | null)?.answer;
      if (typeof answer !== "string") continue;
      const it = loadConvItem(db, e.datasetId, j.itemKey);
      items.push({ externalId: j.itemKey, content: { context: { question: it.question, reference: referenceText(it) }, output: answer } });
    }
    if (items.length)
      return {
        task,
        datasetId: e.datasetId,
        items,
        systems: { A: { name: spec.methodA, method: spec.methodA }, B: { name: "reference", method: null } },
      };
  }
  throw new InvalidInputError(`source: experiment ${e.id} has no finished LoCoMo or LongMemEval answer of ${spec.methodA} (run ${r + 1})`);
}

/** The experiments a campaign can take items from, with the methods that finished each task. */
export function experimentSourceChoices(db: Db): Array<{ id: number; name: string; tasks: Record<string, string[]> }> {
  const rows = db
    .select({ id: experiments.id, name: experiments.name, task: jobs.task, method: jobs.method })
    .from(experiments)
    .innerJoin(jobs, eq(jobs.experimentId, experiments.id))
    .where(eq(jobs.status, "done"))
    .groupBy(experiments.id, jobs.task, jobs.method)
    .orderBy(asc(experiments.id))
    .all();
  const out = new Map<number, { id: number; name: string; tasks: Record<string, string[]> }>();
  for (const r of rows) {
    if (r.task !== "dialogue" && r.task !== "hicupid" && !(ANSWER_TASKS as readonly string[]).includes(r.task)) continue;
    if (r.method.includes("~")) continue; // pairwise judging jobs, not a method's output
    const e = out.get(r.id) ?? { id: r.id, name: r.name, tasks: {} };
    (e.tasks[r.task] ??= []).push(r.method);
    out.set(r.id, e);
  }
  return [...out.values()];
}
