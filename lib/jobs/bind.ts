/**
 * The one place where the experiments engine meets the model client (lib/llm) and the method registry
 * (lib/assistants). A job's model calls go through the shared ModelClient with the job as their ledger
 * origin (llm_calls.job_id), so its cache makes a re-run after a crash free and the ledger shows what each
 * job paid. A method's memory is built (or completed, resumably) for the item's user before it answers.
 */
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { canonicalJson, methodKey, parseExperimentConfig, type ExperimentConfig } from "@/lib/experiments/config";
import { recordMemoryVersion } from "./memory-cost";
import { resolveModelConfig } from "@/lib/llm/config";
import { getTask } from "@/lib/tasks/registry";
import { ModelClient, type CollectedCall, type ModelClientOptions } from "@/lib/llm/client";
import type { SpendGuard } from "@/lib/llm/spend-guard";
import { summarizeCalls } from "@/lib/llm/ledger";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { buildMemory } from "@/lib/assistants/build";
import { respondInSession } from "@/lib/assistants/respond";
import { datasetById, loadSessions, type DatasetRef } from "@/lib/assistants/sessions";
import { parseOptions, type CreateRetriever } from "@/lib/assistants/context";
import { InvalidInputError } from "@/lib/errors";
import type { MethodCheck } from "./create";
import type { Session } from "@/lib/assistants/types";
import type { ChatRequest, AssistantPort } from "@/lib/tasks/ports";
import type { ModelRoleName } from "@/lib/tasks/ports";
import { CONTEXT_SETTINGS, isContextSetting } from "@/lib/tasks/hicupid/settings";
import type { BoundModel, WorkerDeps } from "./worker";
import { startPreparer, startServerWorker } from "./server-worker";
import { envNumber } from "@/lib/config";

/** Whether jobs can run in this build (the server starts its worker only then). */
export function modelClientAvailable(): boolean {
  return true;
}

/**
 * Before anything is created: every model role the experiment's tasks call must have a model configured
 * (environment or Admin → Models); the error names the role and how to set it.
 */
export function requireModels(db: Db, rawConfig: unknown): void {
  const config = parseExperimentConfig(rawConfig);
  const roles = new Set<string>(["assistant"]);
  for (const name of config.tasks) {
    const task = getTask(name, "config.tasks");
    for (const est of [task.estimate(config), task.pairs?.estimate(config)]) {
      if (!est) continue;
      if (est["user-simulator"] > 0) roles.add("user-simulator");
      if (est.judge > 0) roles.add("judge");
    }
  }
  if (config.retriever === "dense") roles.add("embedding");
  // HiCUPID's RAG settings choose their retriever per method.
  if (config.methods.some((m) => m.options?.retriever === "dense")) roles.add("embedding");
  for (const r of roles) {
    try {
      resolveModelConfig(db, r);
    } catch (e) {
      // A preset's protocol needs the role: say so before anything is created.
      if (config.preset && e instanceof InvalidInputError)
        throw new InvalidInputError(`the ${config.preset} preset needs the ${r} role: ${e.message}`);
      throw e;
    }
  }
}

/** Per-role request parameters from the experiment config (temperature; a model name overrides the endpoint's). */
function roleParams(config: ExperimentConfig, role: ModelRoleName): Record<string, unknown> {
  const m = config.models[role];
  return { ...(m?.temperature !== undefined ? { temperature: m.temperature } : {}), ...(m?.model ? { model: m.model } : {}) };
}

/** The model client seen by one job: its calls carry the job as ledger origin; usage() reads that ledger. */
export function jobModel(
  db: Db,
  client: ModelClient,
  jobId: number,
  config: ExperimentConfig,
  guard?: SpendGuard,
  collect?: (call: CollectedCall) => void,
): BoundModel {
  const llm = client
    .withOrigin({ jobId })
    .withGuard(guard ?? null)
    .deferringHits();
  // Judge calls to be batched (lib/jobs/judge-batch.ts) are handed to `collect` instead of sent.
  const judge = collect ? llm.collecting(collect) : llm;
  const via = (req: ChatRequest) => (req.role === "judge" ? judge : llm);
  const opts = (req: ChatRequest) => ({
    role: req.role,
    config: req.config,
    messages: req.messages,
    language: req.language,
    replicate: req.replicate,
    purpose: req.purpose,
    params: { ...roleParams(config, req.role), ...(req.temperature !== undefined ? { temperature: req.temperature } : {}) },
  });
  return {
    async chatJson(req) {
      const r = await via(req).chat({ ...opts(req), schema: req.schema });
      return { value: r.value, raw: r.text };
    },
    async chatText(req) {
      // Free-text replies (HiCUPID's verdict on the last line): the client parses them and asks again
      // with what was wrong, as it does for JSON.
      const r = await via(req).chat({ ...opts(req), parse: req.parse });
      return { value: r.value, raw: r.text };
    },
    embed: (texts, purpose) => llm.embed(texts, { purpose }),
    takeDeferredHits: () => client.takeDeferredHits({ jobId }),
    usage() {
      const s = summarizeCalls(db, { jobId });
      const deferred = client.deferredHitsOf({ jobId });
      return {
        calls: s.byStatus.ok + deferred,
        cacheHits: s.cacheHits + deferred,
        requests: s.requests,
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
      };
    },
  };
}

export type BindOptions = {
  client?: ModelClient;
  clientOptions?: ModelClientOptions;
  /** Tests may inject retrievers (lib/assistants' CreateRetriever); production uses lib/retrieval's. */
  createRetriever?: CreateRetriever;
};

/**
 * Worker dependencies over the real model client and method registry. Memory builds are shared per
 * (user, method, options, retriever) within the process, so jobs of one user wait for one build.
 */
export function bindDeps(db: Db, o: BindOptions = {}): WorkerDeps {
  const client = o.client ?? ModelClient.create(db, o.clientOptions);
  const builds = new Map<string, Promise<number>>();
  const recorded = new Set<string>();
  const sessionsOf = new Map<string, Session[]>();
  // Like the sessions, a data set's identity is read once: ids are never reused and its content cannot change under an experiment.
  const datasetsById = new Map<number, DatasetRef>();
  const sessionsFor = (ds: DatasetRef, userKey: string): Session[] => {
    const sk = `${ds.id}\u0000${userKey}`;
    let sessions = sessionsOf.get(sk);
    if (!sessions) sessionsOf.set(sk, (sessions = loadSessions(db, ds, userKey)));
    return sessions;
  };
  const ensureBuilt = (
    ds: DatasetRef,
    method: ExperimentConfig["methods"][number],
    retriever: ExperimentConfig["retriever"],
    userKey: string,
  ) => {
    const key = `${ds.id}\u0000${userKey}\u0000${method.name}\u0000${canonicalJson(method.options)}\u0000${retriever}`;
    let p = builds.get(key);
    if (!p) {
      p = buildMemory(db, {
        dataset: ds,
        method: method.name,
        options: method.options,
        retriever,
        users: [userKey],
        sessionsOf: (u) => sessionsFor(ds, u),
        llm: client,
        createRetriever: o.createRetriever,
      }).then((r) => {
        const failed = r.find((x) => x.status !== "complete");
        if (failed) throw new Error(`the ${method.name} memory of user "${userKey}" could not be built: ${failed.error}`);
        return r[0].versionId;
      });
      // A failed build is tried again by the next job that needs it.
      p.catch(() => builds.delete(key));
      builds.set(key, p);
    }
    return p;
  };
  return {
    model: (jobId, config, guard, collect) => jobModel(db, client, jobId, config, guard, collect),
    client,
    async assistant({ datasetId, method, config, userKey, sessionSeq, jobId, replicate, experimentId, guard }): Promise<AssistantPort> {
      let ds = datasetsById.get(datasetId);
      if (!ds) datasetsById.set(datasetId, (ds = datasetById(db, datasetId)));
      const versionId = await ensureBuilt(ds, method, config.retriever, userKey);
      const used = `${experimentId}\u0000${methodKey(method)}\u0000${versionId}`;
      if (!recorded.has(used)) {
        recordMemoryVersion(db, experimentId, methodKey(method), versionId);
        recorded.add(used);
      }
      const s = sessionsFor(ds, userKey);
      return {
        method: method.name,
        async respond(input) {
          const r = await respondInSession(db, {
            dataset: ds,
            userKey,
            method: method.name,
            options: method.options,
            retriever: config.retriever,
            createRetriever: o.createRetriever,
            seq: sessionSeq,
            input,
            // A repeat's answers are its own paid calls (distinct replicate index), not the first run's cached ones.
            llm: client
              .withReplicate(replicate)
              .withGuard(guard ?? null)
              .deferringHits(),
            origin: { jobId },
            sessions: s,
          });
          return { output: r.output, retrieved: r.retrieved };
        },
      };
    },
  };
}

let shared: { db: Db; deps: WorkerDeps } | null = null;

/** The process's worker dependencies over the app database (one model client: one cache, one set of limits). */
export function productionDeps(): WorkerDeps {
  const db = getDb();
  if (!shared || shared.db !== db) shared = { db, deps: bindDeps(db) };
  return shared.deps;
}

/** The methods experiments accept: the registry's methods and HiCUPID's context settings, with valid options. */
export function knownMethod(): MethodCheck {
  return (m, where) => {
    if (isContextSetting(m.name)) {
      const r = CONTEXT_SETTINGS[m.name].options.safeParse(m.options ?? {});
      if (!r.success)
        throw new InvalidInputError(`${where}.options.${r.error.issues[0].path.join(".") || "(root)"}: ${r.error.issues[0].message}`);
      return;
    }
    const a = ASSISTANTS.find((x) => x.id === m.name);
    if (!a) {
      const all = [...ASSISTANTS.map((x) => x.id), ...Object.keys(CONTEXT_SETTINGS)];
      throw new InvalidInputError(`${where}.name: unknown method "${m.name}" (available: ${all.join(", ")})`);
    }
    try {
      parseOptions(a, m.options);
    } catch (e) {
      throw new InvalidInputError(`${where}.options: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

/** The methods a user may pick in the browser, with the data set kinds they apply to. */
export function methodChoices(): Array<{ name: string; kinds: Array<"palset" | "hicupid"> }> {
  return [
    ...ASSISTANTS.map((a) => ({ name: a.id, kinds: ["palset", "hicupid"] as Array<"palset" | "hicupid"> })),
    ...Object.keys(CONTEXT_SETTINGS).map((name) => ({ name, kinds: ["hicupid"] as Array<"palset" | "hicupid"> })),
  ];
}

/** Starts the server's experiments worker (instrumentation.ts), when jobs can run in this build. */
export function startExperimentsWorker(): void {
  // Jobs of launched experiments are created even when no model can run them yet.
  startPreparer(getDb());
  if (!modelClientAvailable()) return;
  startServerWorker(getDb(), productionDeps, { concurrency: envNumber("PAL_WORKER_CONCURRENCY", 8) || 8 });
}
