import fs from "node:fs";
import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { datasets } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { createExperiment } from "@/lib/experiments/create";
import { prepareJobsSync } from "@/lib/experiments/prepare";
import { dryRun } from "@/lib/experiments/dry-run";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentResults } from "@/lib/experiments/results";
import { experimentProgress } from "@/lib/experiments/progress";
import { resumeExperiment, getExperimentRow } from "@/lib/experiments/control";
import { runStatusLabel } from "@/lib/run-status";
import { productionDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { requireModels } from "@/lib/experiments/required-models";
import { dryRunTable, progressLine, resultsTable } from "@/lib/experiments/format";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { applyPreset, getPreset, presetOverrides, presetSettings, type PresetId } from "@/lib/experiments/presets";
import { CliError } from "../errors";
import { progressWriter } from "../progress-writer";

type RunOpts = {
  dataset?: string;
  method?: string;
  task?: string;
  users?: string;
  repeats?: string;
  seed?: string;
  reference?: string;
  retriever?: string;
  name?: string;
  dryRun?: boolean;
  json?: boolean;
  resume?: string;
  concurrency?: string;
  config?: string;
  maxCalls?: string;
  maxUsd?: string;
  preset?: string;
  overLimit?: boolean;
  batchJudge?: boolean;
  pollSeconds?: string;
  cancelBatch?: boolean;
  retryFailed?: boolean;
};

const list = (s?: string) =>
  s
    ? s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
const int = (s: string | undefined, flag: string) => {
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s)) throw new CliError(`${flag}: "${s}" is not a whole number`);
  return Number(s);
};

const usd = (s: string) => {
  const v = Number(s);
  if (!Number.isFinite(v) || v <= 0) throw new CliError(`--max-usd: "${s}" is not a positive amount`);
  return v;
};

function readConfigFile(file: string): Record<string, unknown> {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch {
    throw new CliError(`--config: cannot read ${file}`);
  }
  try {
    const v = JSON.parse(raw);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
    return v as Record<string, unknown>;
  } catch (e) {
    throw new CliError(`--config: ${file} is not a JSON object (${e instanceof Error ? e.message : e})`);
  }
}

/** A preset's settings as text: path, value, source; then the overrides. */
function presetText(
  p: {
    label: string;
    settings: Array<{ path: string; value: unknown; source: string }>;
    overrides: Array<{ path: string; preset: unknown; value: unknown }>;
  } | null,
): string {
  if (!p) return "";
  const lines = [`${p.label}: settings and their sources`, ...p.settings.map((s) => `${s.path}\t${JSON.stringify(s.value)}\t${s.source}`)];
  lines.push(p.overrides.length ? "overrides of the preset:" : "no overrides of the preset");
  for (const o of p.overrides) lines.push(`${o.path}\t${JSON.stringify(o.preset)} → ${JSON.stringify(o.value)}`);
  return lines.join("\n");
}

export function registerRun(program: Command): void {
  program
    .command("run")
    .description(SUMMARIES.run)
    .option("--dataset <name>", "data-set name")
    .option("--method <m,...>", "methods")
    .option("--task <t,...>", "tasks: requirement, solution, dialogue, hicupid")
    .option("--users <id,...|all>", "a subset of users, or all (the default)")
    .option("--repeats <n>", "runs with distinct replicate indices")
    .option("--seed <n>", "seed (dialogue templates)")
    .option("--reference <m>", "the method the others are compared with")
    .option("--retriever <kind>", "bm25 or dense")
    .option("--concurrency <n>", "jobs in flight at once", "8")
    .option(
      "--config <file.json>",
      "the experiment config as JSON (methods with options and labels, models, hicupid, ...); flags override it",
    )
    .option("--preset <id>", "start from a paper's protocol: mem-pal or hicupid (every setting sourced; --config and flags override it)")
    .option("--name <name>", "experiment name")
    .option("--max-calls <n>", "spend cap: pause the run when its paid calls reach n")
    .option("--max-usd <usd>", "spend cap: pause the run when its cost at the config's prices reaches this many USD")
    .option("--batch-judge", "send the judge calls through the judge endpoint's Batch API (half price, up to 24 h); waits, polling")
    .option("--poll-seconds <n>", "--batch-judge: seconds between polls of a batch", "30")
    .option("--cancel-batch", "with --resume ID: cancel the experiment's judge batches in progress (its items are then judged online)")
    .option("--dry-run", "print the calls and tokens it would take; spend nothing")
    .option("--json", "machine-readable output")
    .option("--resume <id>", "resume an experiment")
    .option("--retry-failed", "with --resume ID: run the failed items again too (as the page's Retry failed)")
    .option(
      "--over-limit",
      "skip the per-launch limits (methods, repeats, jobs of Admin → Settings) for this run; whoever runs pal owns the database",
    )
    .action(async (o: RunOpts) => {
      const db = getDb();
      let id: number;
      if (o.cancelBatch && !o.resume) throw new CliError("--cancel-batch needs --resume ID");
      if (o.retryFailed && !o.resume) throw new CliError("--retry-failed needs --resume ID");
      if (o.resume) {
        id = int(o.resume, "--resume")!;
        if (o.cancelBatch) {
          const [{ cancelJudgeBatches }, { ModelClient }] = await Promise.all([
            import("@/lib/experiments/judge-batch"),
            import("@/lib/llm/client"),
          ]);
          for (const b of await cancelJudgeBatches(db, ModelClient.create(db), id))
            process.stderr.write(`batch ${b.id} (${b.remoteId ?? "not submitted"}) cancelled\n`);
        }
        // --retry-failed queues the failed items again, as the experiment page's Retry failed does.
        resumeExperiment(db, id, { retryFailed: Boolean(o.retryFailed) });
        // Stopped before all its jobs existed: create the rest first (the server's preparer would too).
        if (getExperimentRow(db, id).status === "preparing") prepareJobsSync(db, id);
      } else {
        const preset = o.preset ? getPreset(o.preset, "--preset") : null;
        if (!o.dataset && !(preset && o.dryRun)) throw new CliError("--dataset is required (or --resume ID)");
        const ds = o.dataset ? db.select().from(datasets).where(eq(datasets.name, o.dataset)).get() : undefined;
        if (o.dataset && !ds) throw new NotFoundError(`no data set named "${o.dataset}"`);
        if (ds && preset && ds.kind !== preset.datasetKind) {
          throw new CliError(`--preset ${preset.id} runs on a ${preset.datasetKind} data set; "${ds.name}" is ${ds.kind}`);
        }
        const file = o.config ? readConfigFile(o.config) : {};
        const flags = {
          ...(o.method ? { methods: list(o.method).map((name) => ({ name })) } : {}),
          ...(o.task ? { tasks: list(o.task) } : {}),
          ...(o.users ? { users: o.users.trim() === "all" ? "all" : list(o.users) } : {}),
          ...(o.repeats ? { repeats: int(o.repeats, "--repeats") } : {}),
          ...(o.seed ? { seed: int(o.seed, "--seed") } : {}),
          ...(o.reference ? { reference: o.reference } : {}),
          ...(o.retriever ? { retriever: o.retriever } : {}),
          ...(o.batchJudge ? { judgeBatch: true } : {}),
          ...(o.maxCalls || o.maxUsd
            ? {
                spendCap: {
                  ...((file.spendCap as object | undefined) ?? {}),
                  ...(o.maxCalls ? { calls: int(o.maxCalls, "--max-calls") } : {}),
                  ...(o.maxUsd ? { usd: usd(o.maxUsd) } : {}),
                },
              }
            : {}),
        };
        const config: Record<string, unknown> = preset ? applyPreset(preset.id, { ...file, ...flags }, "--preset") : { ...file, ...flags };
        if (o.dryRun) {
          const full = parseExperimentConfig(config);
          // The preset's settings with their sources, and what this run changes from it.
          const protocol = preset
            ? { id: preset.id, label: preset.label, settings: presetSettings(preset.id as PresetId), overrides: presetOverrides(full) }
            : null;
          if (!ds) {
            process.stdout.write(
              o.json
                ? JSON.stringify({ dataset: null, config: full, preset: protocol, estimate: "needs --dataset" }) + "\n"
                : `${presetText(protocol)}\n(the estimate needs --dataset)\n`,
            );
            return;
          }
          const d = dryRun(db, ds.id, config, knownMethod());
          process.stdout.write(
            o.json
              ? JSON.stringify({
                  dataset: ds.name,
                  config: full,
                  preset: protocol,
                  rows: d.rows,
                  total: d.total,
                  tokenBasis: d.tokenBasis,
                  builds: d.builds,
                  buildTokenBasis: d.buildTokenBasis,
                  withBuilds: d.withBuilds,
                  worstCase: d.worstCase,
                  limits: d.limits,
                }) + "\n"
              : (protocol ? `${presetText(protocol)}\n\n` : "") + dryRunTable(d.rows, d.total, d.tokenBasis, d),
          );
          return;
        }
        if (!ds) throw new CliError("--dataset is required (or --resume ID)");
        requireModels(db, config);
        const label = (v: unknown) =>
          Array.isArray(v) ? v.map((m) => (typeof m === "string" ? m : (m?.label ?? m?.name))).join(",") : "?";
        id = createExperiment(db, {
          name: o.name ?? `${o.dataset}: ${preset ? `${preset.label}, ` : ""}${label(config.methods)} × ${label(config.tasks)}`,
          datasetId: ds.id,
          config,
          knownMethod: knownMethod(),
          limits: o.overLimit ? "override" : "enforce",
        }).id;
        process.stderr.write(`experiment ${id} created\n`);
      }
      const progress = progressWriter(process.stderr, () => progressLine(experimentProgress(db, id)));
      await runExperiment(db, id, productionDeps(), {
        concurrency: int(o.concurrency, "--concurrency"),
        // Judge batches (config judgeBatch): this process waits for them, polling, and shows their state.
        waitForBatch: true,
        batchPollMs: int(o.pollSeconds, "--poll-seconds")! * 1000,
        onBatch: (b) =>
          process.stderr.write(
            `${progress.interrupt()}judge batch ${b.id}: ${b.status.replace("_", " ")} (${b.completed}/${b.requests} answered)\n`,
          ),
        onProgress: () => progress.tick(),
      });
      progress.end();
      const res = experimentResults(db, id);
      const end = experimentProgress(db, id);
      const label = runStatusLabel(end.status, end.failed, end.total).text;
      if (o.json) {
        const { experiment, status, results, pairwise, ledger } = res;
        process.stdout.write(
          JSON.stringify({
            experiment,
            status,
            statusText: label,
            failed: end.failed,
            error: end.error,
            results,
            pairwise,
            ledger,
            summary: res.summary,
          }) + "\n",
        );
      } else process.stdout.write(resultsTable(res));
      // Failed items or a self-paused run are not a clean finish: exit 3, as `pal campaign judge` does.
      if (end.status === "paused") {
        process.stderr.write(`experiment ${id} paused${end.error ? `: ${end.error}` : ""}; resume with pal run --resume ${id}\n`);
        process.exitCode = 3;
      } else if (end.failed > 0) {
        process.stderr.write(`experiment ${id}: ${label} (their errors: the experiment page, or pal export)\n`);
        process.exitCode = 3;
      }
    });
}
