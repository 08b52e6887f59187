/**
 * The production `WorkerDeps`: the one ModelClient (each job's calls bound by job-model.ts) and the
 * method registry (lib/assistants). A method's memory is built (or completed, resumably) for the item's
 * user before it answers.
 */
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { canonicalJson, methodKey, type ExperimentConfig } from "@/lib/experiments/config";
import { ModelClient, type ModelClientOptions } from "@/lib/llm/client";
import { buildMemory } from "@/lib/assistants/core/build";
import { respondInSession } from "@/lib/assistants/core/respond";
import { datasetById, loadSessions, type DatasetRef } from "@/lib/assistants/core/sessions";
import type { CreateRetriever } from "@/lib/assistants/core/context";
import type { Session } from "@/lib/assistants/core/types";
import type { AssistantPort } from "@/lib/tasks/ports";
import type { SpendGuard } from "@/lib/llm/spend-guard";
import { recordMemoryVersion } from "./memory-cost";
import { jobModel, runHandle, runRoleParams } from "./job-model";
import type { WorkerDeps } from "./worker";

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
  const linkVersion = (experimentId: number, method: ExperimentConfig["methods"][number], versionId: number) => {
    const used = `${experimentId}\u0000${methodKey(method)}\u0000${versionId}`;
    if (!recorded.has(used)) {
      recordMemoryVersion(db, experimentId, methodKey(method), versionId);
      recorded.add(used);
    }
  };
  const ensureBuilt = (
    ds: DatasetRef,
    method: ExperimentConfig["methods"][number],
    config: ExperimentConfig,
    userKey: string,
    experimentId: number,
    guard: SpendGuard | undefined,
  ) => {
    // Per experiment: a build is paid for by the run that makes it, under that run's spend guard. Two
    // experiments needing one memory share it through the version's lease (the second finds it built).
    const key = `${experimentId}\u0000${ds.id}\u0000${userKey}\u0000${method.name}\u0000${canonicalJson(method.options)}\u0000${config.retriever}`;
    let p = builds.get(key);
    if (!p) {
      p = buildMemory(db, {
        dataset: ds,
        method: method.name,
        options: method.options,
        retriever: config.retriever,
        roleParams: runRoleParams(config),
        users: [userKey],
        sessionsOf: (u) => sessionsFor(ds, u),
        // Every build call counts against the run's spend cap and carries the experiment in the ledger.
        llm: runHandle(client, config, { origin: { experimentId }, guard }),
        createRetriever: o.createRetriever,
        // Linked before its first call, so a build that fails midway is still in the experiment's cost.
        onVersion: (_user, versionId) => linkVersion(experimentId, method, versionId),
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
    runModel: (experimentId, config) => runHandle(client, config, { origin: { experimentId } }),
    async assistant({ datasetId, method, config, userKey, sessionSeq, jobId, replicate, experimentId, guard }): Promise<AssistantPort> {
      let ds = datasetsById.get(datasetId);
      if (!ds) datasetsById.set(datasetId, (ds = datasetById(db, datasetId)));
      const versionId = await ensureBuilt(ds, method, config, userKey, experimentId, guard);
      linkVersion(experimentId, method, versionId);
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
            roleParams: runRoleParams(config),
            createRetriever: o.createRetriever,
            seq: sessionSeq,
            input,
            // A repeat's answers are its own paid calls (distinct replicate index), not the first run's cached ones.
            // The run's role parameters (the assistant's temperature...) on every answer, as on the job's other calls.
            llm: runHandle(client, config, { origin: { jobId }, replicate, guard }).deferringHits(),
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
