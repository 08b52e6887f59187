/**
 * Running an LLM judge over a campaign's items. A run is a `judge_runs` row (origin "llm") whose verdicts
 * are `judge_labels`, so Table 11, the tie-excluded kappa, Figure 2 and the side-by-side view read it like
 * an imported one. The same judge with the same settings on the same campaign resumes its run: items and
 * dimensions already judged are skipped, and the model client's cache makes repeated calls free. Every call
 * carries the run as its ledger origin. An item the model could not judge is recorded in `judge_failures`.
 */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import pLimit from "p-limit";
import type { Db } from "@/db/client";
import { campaignItems, campaignOutputs, campaignSystems, judgeFailures, judgeLabels, judgeRuns, llmCalls } from "@/db/schema";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { listModelConfigs, resolveModelConfig, summarizeCalls, type ModelClient } from "@/lib/llm";
import { RunPausedError, SpendGuard } from "@/lib/llm/spend-guard";
import { diagnoseRecorded, pauseHint as hintFromReason } from "@/lib/llm/diagnose";
import { DeferredCallError, type CollectedCall } from "@/lib/llm/client";
import { FINISHED_BATCH, batchState, batchesOfRun } from "@/lib/llm/batch";
import { campaignDimensionsOf, getCampaign } from "../campaigns";
import { judgeRunsOf } from "../human-labels";
import { judgeForKind } from "./adapters";
import { JUDGE_TEMPERATURE, type JudgeModel } from "@/lib/judges/judge";
import { judgeModel } from "./model";
import { experimentJudgeParams } from "./experiment-params";
import { CANCELLED, cancelRequested } from "./cancel";
import type { CampaignJudgeDef, JudgeContext, JudgeItem, JudgeSettings } from "./types";

export interface LlmJudgeOptions {
  /** The judge model configuration: "judge" (the default) or a named one such as "judge:gpt4o". */
  modelConfig?: string;
  temperature?: number;
  tieMargin?: number;
  seed?: number;
}

/** The model configurations a researcher may pick for a judge run. */
export function judgeConfigChoices(db: Db): string[] {
  return listModelConfigs(db)
    .filter((c) => c.role === "judge")
    .map((c) => c.name);
}

function settingsOf(db: Db, o: LlmJudgeOptions): JudgeSettings {
  const modelConfig = (o.modelConfig ?? "judge").trim() || "judge";
  if (!judgeConfigChoices(db).includes(modelConfig)) {
    throw new InvalidInputError(
      `judge: "${modelConfig}" is not a judge configuration (expected one of ${judgeConfigChoices(db).join(", ")})`,
    );
  }
  const temperature = o.temperature ?? JUDGE_TEMPERATURE;
  if (!(temperature >= 0 && temperature <= 2)) throw new InvalidInputError(`temperature: expected 0..2, got ${temperature}`);
  const tieMargin = o.tieMargin ?? 0;
  if (!(tieMargin >= 0)) throw new InvalidInputError(`tieMargin: expected a number >= 0, got ${tieMargin}`);
  const seed = o.seed ?? 1;
  if (!Number.isInteger(seed)) throw new InvalidInputError(`seed: expected an integer, got ${seed}`);
  return { modelConfig, temperature, tieMargin, seed };
}

type RunConfig = JudgeSettings & { judge: string };

const sameConfig = (a: Record<string, unknown> | null, b: RunConfig) =>
  !!a &&
  a.judge === b.judge &&
  a.modelConfig === b.modelConfig &&
  a.temperature === b.temperature &&
  a.tieMargin === b.tieMargin &&
  a.seed === b.seed;

/** The campaign's LLM judge runs (imported ones are the campaign's other runs), oldest first. */
const llmRunsOf = (db: Db, campaignId: number) => judgeRunsOf(db, campaignId).filter((r) => r.origin === "llm");

/** The items a judge reads: a campaign's attention checks are made for people, not worth a model call. */
const judgedItems = (campaignId: number) => and(eq(campaignItems.campaignId, campaignId), isNull(campaignItems.attention));

function existingRun(db: Db, campaignId: number, config: RunConfig) {
  return llmRunsOf(db, campaignId).find((r) => sameConfig(r.config, config));
}

/** The (item, dimension) pairs a run still has to judge: all of them for a new run. */
function pending(db: Db, campaignId: number, dims: string[], runId: number | null): Map<number, string[]> {
  const items = db
    .select({ id: campaignItems.id })
    .from(campaignItems)
    .where(judgedItems(campaignId))
    .orderBy(asc(campaignItems.position))
    .all();
  const done = new Set(
    runId === null
      ? []
      : db
          .select({ itemId: judgeLabels.itemId, dimension: judgeLabels.dimension })
          .from(judgeLabels)
          .where(eq(judgeLabels.runId, runId))
          .all()
          .map((l) => `${l.itemId}|${l.dimension}`),
  );
  const out = new Map<number, string[]>();
  for (const it of items) {
    const todo = dims.filter((d) => !done.has(`${it.id}|${d}`));
    if (todo.length) out.set(it.id, todo);
  }
  return out;
}

export interface LlmJudgeEstimate {
  judge: string;
  judgeLabel: string;
  modelConfig: string;
  model: string;
  items: number;
  /** Item-dimension verdicts still to make (all of them unless a run with these settings exists). */
  pending: number;
  /** Model calls those need (cache hits included: a re-run after a crash costs less). */
  calls: number;
  /** Calls for the whole campaign from scratch. */
  totalCalls: number;
  runId: number | null;
}

/** The dry run: which judge and model, and how many calls the run would make. Nothing is written. */
export function estimateLlmJudge(db: Db, campaignId: number, o: LlmJudgeOptions = {}): LlmJudgeEstimate {
  const c = getCampaign(db, campaignId);
  const def = judgeForKind(c.kind);
  const settings = settingsOf(db, o);
  const model = resolveModelConfig(db, settings.modelConfig).model;
  const dims = campaignDimensionsOf(db, campaignId).map((d) => d.key);
  const run = existingRun(db, campaignId, { ...settings, judge: def.name });
  const todo = pending(db, campaignId, dims, run?.id ?? null);
  const all = pending(db, campaignId, dims, null);
  const calls = (m: Map<number, string[]>) => [...m.values()].reduce((s, d) => s + def.calls(d), 0);
  return {
    judge: def.name,
    judgeLabel: def.label,
    modelConfig: settings.modelConfig,
    model,
    items: all.size,
    pending: [...todo.values()].reduce((s, d) => s + d.length, 0),
    calls: calls(todo),
    totalCalls: calls(all),
    runId: run?.id ?? null,
  };
}

/** The campaign's items as a judge reads them, in campaign order. */
function loadItems(db: Db, campaignId: number): JudgeItem[] {
  const rows = db.select().from(campaignItems).where(judgedItems(campaignId)).orderBy(asc(campaignItems.position)).all();
  const outputs = db
    .select({ itemId: campaignOutputs.itemId, slot: campaignSystems.slot, output: campaignOutputs.output })
    .from(campaignOutputs)
    .innerJoin(campaignSystems, eq(campaignSystems.id, campaignOutputs.systemId))
    .where(eq(campaignSystems.campaignId, campaignId))
    .all();
  // Only the outputs by slot reach a judge: system names stay out of every prompt.
  const bySlot = new Map<number, { A?: unknown; B?: unknown }>();
  for (const o of outputs) bySlot.set(o.itemId, { ...bySlot.get(o.itemId), [o.slot]: o.output });
  return rows.map((r) => {
    const out = bySlot.get(r.id);
    return { id: r.id, externalId: r.externalId, content: r.content, ...(out ? { outputs: { A: out.A, B: out.B } } : {}) };
  });
}

/** Creates the run, or finds the one with the same judge and settings (to resume it). */
export function ensureLlmJudgeRun(
  db: Db,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
): { runId: number; def: CampaignJudgeDef; settings: JudgeSettings } {
  const c = getCampaign(db, campaignId);
  const def = judgeForKind(c.kind);
  const settings = settingsOf(db, o);
  const model = resolveModelConfig(db, settings.modelConfig).model;
  const config: RunConfig = { ...settings, judge: def.name };
  const found = existingRun(db, campaignId, config);
  if (found) return { runId: found.id, def, settings };
  // Settings other than the defaults are part of the name, so two runs of one model can be told apart.
  const extra = [
    settings.temperature !== JUDGE_TEMPERATURE ? `t=${settings.temperature}` : "",
    settings.tieMargin !== 0 && def.name === "dialogue-pair" ? `margin ${settings.tieMargin}` : "",
    settings.seed !== 1 && def.name === "hicupid-ab" ? `seed ${settings.seed}` : "",
  ].filter(Boolean);
  const name = `LLM ${def.name} (${[settings.modelConfig === "judge" ? model : settings.modelConfig, ...extra].join(", ")})`;
  const run = db
    .insert(judgeRuns)
    .values({ campaignId, name, origin: "llm", model, config: { ...config }, createdBy: userId })
    .returning({ id: judgeRuns.id })
    .get();
  return { runId: run.id, def, settings };
}

/** What every judge of a run sees: the bound model, the settings, the guidelines and dimensions, all items. */
function judgeContext(db: Db, campaignId: number, model: JudgeModel, settings: JudgeSettings): JudgeContext {
  const c = getCampaign(db, campaignId);
  return {
    model,
    settings,
    guidelines: c.guidelines ?? "",
    dimensions: campaignDimensionsOf(db, campaignId),
    items: loadItems(db, campaignId),
  };
}

export type LlmJudgeProgress = { runId: number; total: number; judged: number; failed: number };

export interface LlmJudgeResult extends LlmJudgeProgress {
  /** Item-dimension verdicts made in this pass (the rest were there already). */
  newlyJudged: number;
  /** Requests this pass sent to the endpoint (cache hits not counted). */
  requests: number;
  /** Set when the run's spend guard paused it: why. */
  paused?: string;
}

/** Items in flight at once; the model client's per-role limit bounds the calls themselves. */
const ITEM_CONCURRENCY = 4;

/**
 * Judges every item and dimension the run has not judged yet. Per item, one transaction writes its
 * verdicts and failures. `onProgress` is called after each item.
 */
export async function runLlmJudge(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
  onProgress?: (p: LlmJudgeProgress) => void,
): Promise<LlmJudgeResult> {
  const { runId, def, settings } = ensureLlmJudgeRun(db, campaignId, o, userId);
  const dimensions = campaignDimensionsOf(db, campaignId);
  const todo = pending(
    db,
    campaignId,
    dimensions.map((d) => d.key),
    runId,
  );
  // Spending safety: the run pauses itself when its attempts keep failing (lib/llm/spend-guard.ts).
  db.update(judgeRuns).set({ pausedReason: null }).where(eq(judgeRuns.id, runId)).run();
  cancelRequested.delete(runId);
  const guard = new SpendGuard({
    onTrip: (reason) =>
      db
        .update(judgeRuns)
        .set({ pausedReason: reason === CANCELLED ? CANCELLED : `paused by its spend guard: ${reason}` })
        .where(eq(judgeRuns.id, runId))
        .run(),
    // Cancel (./control.ts): no further attempt once asked.
    stopped: () => (cancelRequested.has(runId) ? CANCELLED : null),
  });
  const ctx = judgeContext(
    db,
    campaignId,
    judgeModel(client.withGuard(guard), runId, settings.modelConfig, settings.temperature, experimentJudgeParams(db, campaignId)),
    settings,
  );
  const items = ctx.items.filter((i) => todo.has(i.id));
  const before = summarizeCalls(db, { judgeRunId: runId }).requests;
  let newlyJudged = 0;
  const limit = pLimit(ITEM_CONCURRENCY);
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        const dims = todo.get(item.id)!;
        if (guard.reason !== null) return; // paused: the rest wait for the run to be started again
        let outcomes: Awaited<ReturnType<typeof def.judge>>;
        try {
          outcomes = await def.judge(ctx, item, dims);
        } catch (e) {
          if (e instanceof RunPausedError) return;
          throw e;
        }
        // An item some of whose calls the guard refused is left for the resumed run, not recorded as failed.
        if (guard.reason !== null && Object.values(outcomes).some((r) => "error" in r && r.error.startsWith("run paused:"))) return;
        db.transaction((tx) => {
          for (const dim of dims) {
            const r = outcomes[dim] ?? { error: "the judge returned nothing for this dimension", rawReply: null };
            if ("error" in r) {
              tx.insert(judgeFailures)
                .values({ runId, itemId: item.id, dimension: dim, error: r.error, rawReply: r.rawReply })
                .onConflictDoUpdate({
                  target: [judgeFailures.runId, judgeFailures.itemId, judgeFailures.dimension],
                  set: { error: r.error, rawReply: r.rawReply },
                })
                .run();
            } else {
              // Another process resuming the same run may have written it first: its verdict stands.
              const w = tx
                .insert(judgeLabels)
                .values({ runId, itemId: item.id, dimension: dim, value: r.value, judgments: r.judgments, analysis: r.analysis })
                .onConflictDoNothing()
                .run();
              tx.delete(judgeFailures)
                .where(and(eq(judgeFailures.runId, runId), eq(judgeFailures.itemId, item.id), eq(judgeFailures.dimension, dim)))
                .run();
              newlyJudged += w.changes;
            }
          }
        });
        onProgress?.(runProgress(db, runId, campaignId, dimensions.length));
      }),
    ),
  );
  if (guard.reason === null) db.update(judgeRuns).set({ finishedAt: Date.now() }).where(eq(judgeRuns.id, runId)).run();
  const p = runProgress(db, runId, campaignId, dimensions.length);
  return {
    ...p,
    newlyJudged,
    requests: summarizeCalls(db, { judgeRunId: runId }).requests - before,
    ...(guard.reason !== null ? { paused: guard.reason === CANCELLED ? CANCELLED : `paused by its spend guard: ${guard.reason}` } : {}),
  };
}

/**
 * The calls the run would make for the items and dimensions it has not judged, as a batch sends them:
 * the judges run against a collecting client (nothing is sent; calls the cache answers are not needed).
 */
export async function collectLlmJudgeCalls(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
): Promise<{ runId: number; calls: Map<string, CollectedCall> }> {
  const { runId, def, settings } = ensureLlmJudgeRun(db, campaignId, o, userId);
  const calls = new Map<string, CollectedCall>();
  const collecting = client.collecting((call) => calls.set(call.cacheKey, call));
  const ctx = judgeContext(
    db,
    campaignId,
    judgeModel(collecting, runId, settings.modelConfig, settings.temperature, experimentJudgeParams(db, campaignId)),
    settings,
  );
  const todo = pending(
    db,
    campaignId,
    ctx.dimensions.map((d) => d.key),
    runId,
  );
  for (const item of ctx.items.filter((i) => todo.has(i.id))) {
    try {
      await def.judge(ctx, item, todo.get(item.id)!);
    } catch (e) {
      if (!(e instanceof DeferredCallError)) throw e;
    }
    // Calls started beside the one that threw reach the collector before the next turn of the event loop.
    await new Promise((r) => setImmediate(r));
  }
  return { runId, calls };
}

function runProgress(db: Db, runId: number, campaignId: number, dims: number): LlmJudgeProgress {
  const items = db.select({ n: count() }).from(campaignItems).where(judgedItems(campaignId)).get()?.n ?? 0;
  const judged = db.select({ n: count() }).from(judgeLabels).where(eq(judgeLabels.runId, runId)).get()?.n ?? 0;
  const failed = db.select({ n: count() }).from(judgeFailures).where(eq(judgeFailures.runId, runId)).get()?.n ?? 0;
  return { runId, total: items * dims, judged, failed };
}

/** Whether this process is running the judge run now. */
export const isJudgeRunActive = (runId: number) => active.has(runId);

/** Runs started by this server process and still going (the campaign page shows them as running). */
const active: Map<number, Promise<unknown>> = ((globalThis as { __palJudgeRuns?: Map<number, Promise<unknown>> }).__palJudgeRuns ??=
  new Map());

/**
 * Starts a run in the background of the server and returns its id at once (the page polls the progress).
 * A run already going is not started twice.
 */
export function startLlmJudge(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
): { runId: number; started: boolean } {
  const { runId } = ensureLlmJudgeRun(db, campaignId, o, userId);
  if (active.has(runId)) return { runId, started: false };
  const p = runLlmJudge(db, client, campaignId, o, userId)
    .catch((e) => console.error(`LLM judge run ${runId} stopped:`, e))
    .finally(() => active.delete(runId));
  active.set(runId, p);
  return { runId, started: true };
}

/**
 * At server start: LLM judge runs that never finished (the server was killed or crashed mid-run) are
 * started again with their recorded settings. The run resumes: stored verdicts are kept and only the
 * missing (item, dimension) pairs are judged, their model calls answered from the cache where paid.
 */
/** A stored run's options, to start it again as it was (resume). */
export function storedRunOptions(config: unknown): LlmJudgeOptions {
  const c = (config ?? {}) as Partial<RunConfig>;
  return { modelConfig: c.modelConfig, temperature: c.temperature, tieMargin: c.tieMargin, seed: c.seed };
}

export function resumeUnfinishedJudgeRuns(db: Db, client: ModelClient): number[] {
  const rows = db
    .select()
    .from(judgeRuns)
    .where(and(eq(judgeRuns.origin, "llm"), isNull(judgeRuns.finishedAt)))
    .all();
  const resumed: number[] = [];
  for (const r of rows) {
    // A run its spend guard paused waits for a person; one with a batch in progress is polled instead (batch-run.ts).
    if (r.pausedReason) continue;
    if (batchesOfRun(db, r.id).some((b) => !FINISHED_BATCH.includes(b.status))) continue;
    try {
      const opts = storedRunOptions(r.config);
      const started = startLlmJudge(db, client, r.campaignId, opts, r.createdBy ?? 0);
      if (started.started && started.runId === r.id) resumed.push(r.id);
    } catch (e) {
      console.error(`LLM judge run ${r.id} could not be resumed:`, e instanceof Error ? e.message : e);
    }
  }
  return resumed;
}

export interface LlmJudgeRunInfo extends LlmJudgeProgress {
  name: string;
  judge: string;
  modelConfig: string;
  model: string | null;
  running: boolean;
  finishedAt: number | null;
  /** Why the spend guard paused the run (null: not paused); "cancelled" when a person cancelled it. */
  pausedReason: string | null;
  /** For a paused run: what Admin → Models → Test connection would say of the failure (issue 44.3). */
  pauseHint: string | null;
  /** Batches sent for the run (batch mode), oldest first. */
  batches: Array<{ id: number; status: string; requests: number; completed: number; failed: number; error: string | null }>;
  requests: number;
  /** Attempts whose reply could not be used, and their tokens (counted in the totals too). */
  unusableAttempts: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  failures: Array<{ itemId: number; externalId: string; dimension: string; error: string }>;
}

/** The endpoint's hint for a run paused by a failure: the judge configuration's URL and what the failure means. */
function pauseHint(db: Db, reason: string | null, modelConfig: string): string | null {
  if (!reason || reason === CANCELLED) return null;
  const fromReason = hintFromReason(reason);
  if (fromReason || !modelConfig) return fromReason;
  try {
    const cfg = resolveModelConfig(db, modelConfig);
    const d = diagnoseRecorded(reason, cfg.baseURL, cfg.model);
    return d.kind === "unknown" ? null : d.message;
  } catch {
    return null; // the configuration was removed since: the reason alone
  }
}

/** The campaign's LLM judge runs with their progress, ledger totals and recorded failures. */
export function llmJudgeRuns(db: Db, campaignId: number): LlmJudgeRunInfo[] {
  const dims = campaignDimensionsOf(db, campaignId).length;
  return llmRunsOf(db, campaignId).map((r) => {
    const ledger = summarizeCalls(db, { judgeRunId: r.id });
    const failures = db
      .select({
        itemId: judgeFailures.itemId,
        externalId: campaignItems.externalId,
        dimension: judgeFailures.dimension,
        error: judgeFailures.error,
      })
      .from(judgeFailures)
      .innerJoin(campaignItems, eq(campaignItems.id, judgeFailures.itemId))
      .where(eq(judgeFailures.runId, r.id))
      .orderBy(asc(campaignItems.position))
      .all();
    const cfg = (r.config ?? {}) as Record<string, unknown>;
    return {
      ...runProgress(db, r.id, campaignId, dims),
      name: r.name,
      judge: String(cfg.judge ?? ""),
      modelConfig: String(cfg.modelConfig ?? ""),
      model: r.model,
      running: active.has(r.id) || (globalThis as { __palBatchJudges?: Set<number> }).__palBatchJudges?.has(r.id) === true,
      finishedAt: r.finishedAt,
      pausedReason: r.pausedReason ?? null,
      pauseHint: pauseHint(db, r.pausedReason ?? null, String(cfg.modelConfig ?? "")),
      batches: batchesOfRun(db, r.id).map(batchState),
      requests: ledger.requests,
      unusableAttempts: ledger.byStatus.invalid + ledger.byStatus.failed,
      cacheHits: ledger.cacheHits,
      promptTokens: ledger.promptTokens,
      completionTokens: ledger.completionTokens,
      failures,
    };
  });
}

/**
 * Deletes a judge run of a campaign (an LLM run that failed, or any run the team no longer wants) with
 * its verdicts and failures. Its model calls stay in the ledger, detached from the run, so spending is
 * never forgotten. A running LLM run cannot be deleted.
 */
export function deleteJudgeRun(db: Db, campaignId: number, runId: number): void {
  getCampaign(db, campaignId);
  const run = Number.isInteger(runId)
    ? db
        .select({ id: judgeRuns.id })
        .from(judgeRuns)
        .where(and(eq(judgeRuns.id, runId), eq(judgeRuns.campaignId, campaignId)))
        .get()
    : undefined;
  if (!run) throw new NotFoundError(`no judge run ${runId} in campaign ${campaignId}`);
  if (active.has(runId)) throw new ConflictError(`judge run ${runId} is running; wait for it to stop before deleting it`);
  db.transaction((tx) => {
    tx.update(llmCalls).set({ judgeRunId: null }).where(eq(llmCalls.judgeRunId, runId)).run();
    tx.delete(judgeRuns).where(eq(judgeRuns.id, runId)).run();
  });
}
