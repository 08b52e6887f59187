/**
 * What the browser asks of the experiments engine, as plain functions the route handlers call: estimate
 * (dry run), launch (create + hand to the server's worker), control (pause, cancel, resume, retry failed),
 * star an item. Request bodies are validated here so every error names its field.
 */
import { z } from "zod";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, jobs } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { launchExperiment } from "./create";
import { dryRun } from "./dry-run";
import { cancelExperiment, getExperimentRow, pauseExperiment, resumeExperiment } from "./control";
import { cancelJudgeBatches, settleCancelledBatches } from "./judge-batch";
import { ModelClient } from "@/lib/llm/client";
import { knownMethod, withRegisteredLabelsIn } from "./method-choices";
import { requireModels } from "./required-models";
import { startFromKindPreset } from "./presets";
import { autoExperimentName } from "./auto-name";
import { wakePreparer, wakeServerWorker } from "./server-worker";
import { refuseControlChars } from "@/lib/xml-text";

const launchBody = z
  .object({
    name: z.string().max(200).optional(),
    datasetId: z.number().int().positive(),
    config: z.record(z.string(), z.unknown()),
    dryRun: z.boolean().optional(),
  })
  .strict();

export function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`body.${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  return r.data;
}

/** The data set's kind; a missing data set is named by the launch (createExperiment), so "" here. */
function datasetKindOf(db: Db, id: number): string {
  return db.select({ kind: datasets.kind }).from(datasets).where(eq(datasets.id, id)).get()?.kind ?? "";
}

function datasetNameOf(db: Db, id: number): string {
  return db.select({ name: datasets.name }).from(datasets).where(eq(datasets.id, id)).get()?.name ?? `data set ${id}`;
}

/** The largest launch body the route reads: a config of the limits' size is a few KB (413 beyond). */
export const LAUNCH_BODY_LIMIT = 64 * 1024;

/**
 * Dry run or launch, by `dryRun`. A launch needs the model client; an estimate never calls it. A launch
 * must fit the limits (lib/experiments/limits.ts) and only records the experiment ("preparing"): the
 * server's preparer creates its jobs in chunks off the request path, then the worker runs them.
 */
export function estimateOrLaunch(db: Db, raw: unknown, userId: number | null) {
  const b = parseBody(launchBody, raw);
  // With `preset`, the browser sends only what differs from it; merged here (presets.ts applyPreset). Without
  // one, a PAL-Set or HiCUPID run starts from its kind's preset all the same (issue 31): the config overrides
  // only what it names. `preset: "none"` is the way to the project's defaults.
  const config = withRegisteredLabelsIn(db, startFromKindPreset(b.config, datasetKindOf(db, b.datasetId)));
  if (b.dryRun) return { estimate: dryRun(db, b.datasetId, config, knownMethod(db)) };
  requireModels(db, config);
  const name =
    b.name?.trim() ||
    autoExperimentName({
      dataset: datasetNameOf(db, b.datasetId),
      preset: config.preset,
      methods: config.methods,
      tasks: config.tasks,
      users: config.users,
    });
  const created = launchExperiment(db, { name, datasetId: b.datasetId, config, createdBy: userId, knownMethod: knownMethod(db) });
  wakePreparer();
  return { experiment: { ...created, status: "preparing" as const } };
}

export const CONTROL_ACTIONS = ["pause", "cancel", "resume", "retry-failed"] as const;
const controlBody = z.object({ action: z.enum(CONTROL_ACTIONS) }).strict();

/** `{action: "cancel-batch"}`: cancels the experiment's judge batches in progress; its items are then judged online. */
export async function cancelExperimentBatches(db: Db, id: number): Promise<void> {
  getExperimentRow(db, id);
  await cancelJudgeBatches(db, ModelClient.create(db), id);
  wakeServerWorker();
}

export async function controlExperiment(db: Db, id: number, raw: unknown): Promise<void> {
  const { action } = parseBody(controlBody, raw);
  if (action === "pause") pauseExperiment(db, id);
  else if (action === "cancel") {
    cancelExperiment(db, id);
    // Its judge batches are cancelled at the endpoint now; one the endpoint still finishes is read into
    // the ledger by the server's worker (settleCancelledBatches).
    await settleCancelledBatches(db, ModelClient.create(db), id);
  } else {
    resumeExperiment(db, id, { retryFailed: action === "retry-failed" });
    wakePreparer();
    wakeServerWorker();
  }
}

const starBody = z
  .object({
    starred: z.boolean(),
    note: z.string().max(4000).optional(),
    tags: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  })
  .strict();

export type StarState = { starred: boolean; note: string | null; tags: string[] };

/**
 * Stars or unstars an item (a case study) with an optional note (why it matters: the figure's caption)
 * and tags to filter the case studies by; the same item of every method is what the case study shows.
 * Fields left out keep their value; unstarring keeps the note, so re-starring finds it again.
 */
export function starJob(db: Db, experimentId: number, jobId: number, raw: unknown): StarState {
  const b = parseBody(starBody, raw);
  refuseControlChars("body.note", b.note);
  b.tags?.forEach((t, i) => refuseControlChars(`body.tags[${i}]`, t));
  const set: Partial<typeof jobs.$inferInsert> = { starred: b.starred };
  if (b.note !== undefined) set.starNote = b.note.trim() || null;
  if (b.tags !== undefined) set.starTags = [...new Set(b.tags.map((t) => t.toLowerCase()))];
  const r = db
    .update(jobs)
    .set(set)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.id, jobId)))
    .returning({ starred: jobs.starred, note: jobs.starNote, tags: jobs.starTags })
    .get();
  if (!r) throw new NotFoundError(`experiment ${experimentId} has no job ${jobId}`);
  return { starred: r.starred, note: r.note, tags: r.tags ?? [] };
}
