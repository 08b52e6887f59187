/**
 * Where the experiments engine meets the model client (lib/llm): a job's model calls go through the
 * shared ModelClient with the job as their ledger origin (llm_calls.job_id), so its cache makes a re-run
 * after a crash free and the ledger shows what each job paid.
 */
import type { Db } from "@/db/client";
import type { ExperimentConfig } from "@/lib/experiments/config";
import type { CollectedCall, ModelClient, RoleParams } from "@/lib/llm/client";
import type { SpendGuard } from "@/lib/llm/spend-guard";
import { summarizeCalls, type Origin } from "@/lib/llm/ledger";
import { CUT_OFF_PARAM } from "@/lib/llm/max-tokens";
import type { ChatRequest, ModelRoleName } from "@/lib/tasks/ports";
import type { BoundModel } from "./worker";

/**
 * Per-role request parameters from the experiment config: temperature, the output budget (max_tokens, the
 * role's budget for every step), a model name over the endpoint's, and the cut-off rule (`cut_off`, read by
 * the client and never sent: lib/llm/request.ts).
 */
function roleParams(config: ExperimentConfig, role: ModelRoleName): Record<string, unknown> {
  const m = config.models[role];
  return {
    ...(m?.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m?.maxTokens !== undefined ? { max_tokens: m.maxTokens } : {}),
    ...(m?.model ? { model: m.model } : {}),
    ...(config.cutOffs === "as-returned" ? { [CUT_OFF_PARAM]: "as-returned" } : {}),
  };
}

/** The run's parameters for every role: what a view made with ModelClient.forRun carries on each call. */
export function runRoleParams(config: ExperimentConfig): RoleParams {
  const roles: ModelRoleName[] = ["assistant", "user-simulator", "judge"];
  return Object.fromEntries(roles.map((r) => [r, roleParams(config, r)]));
}

/**
 * The one handle a run gives a consumer (a task's calls, a method answering, a memory build, a judge):
 * the run's role parameters, the consumer's origin, its replicate and the run's spend guard, bound once.
 * Experiment code reaches the model only through handles made here, so a role's parameters cannot be skipped.
 */
export function runHandle(
  client: ModelClient,
  config: ExperimentConfig,
  o: { origin: Origin; replicate?: number; guard?: SpendGuard | null },
): ModelClient {
  return client
    .forRun(runRoleParams(config))
    .withOrigin(o.origin)
    .withReplicate(o.replicate ?? 0)
    .withGuard(o.guard ?? null);
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
  const llm = runHandle(client, config, { origin: { jobId }, guard }).deferringHits();
  // Judge calls to be batched (lib/experiments/judge-batch.ts) are handed to `collect` instead of sent.
  const judge = collect ? llm.collecting(collect) : llm;
  const via = (req: ChatRequest) => (req.role === "judge" ? judge : llm);
  const opts = (req: ChatRequest) => ({
    role: req.role,
    config: req.config,
    messages: req.messages,
    language: req.language,
    replicate: req.replicate,
    purpose: req.purpose,
    // The run's role parameters come with the handle (forRun); a request may name its own temperature over them.
    ...(req.temperature !== undefined ? { params: { temperature: req.temperature } } : {}),
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
