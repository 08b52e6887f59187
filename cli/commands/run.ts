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
import { runExperiment, workerId } from "@/lib/experiments/worker";
import { experimentResults } from "@/lib/experiments/results";
import { experimentProgress } from "@/lib/experiments/progress";
import { interruptRun, resumeExperiment, getExperimentRow } from "@/lib/experiments/control";
import { runStatusLabel } from "@/lib/run-status";
import { productionDeps } from "@/lib/experiments/deps";
import { knownMethod, withRegisteredLabels } from "@/lib/experiments/method-choices";
import { requireModels } from "@/lib/experiments/required-models";
import { dryRunTable, progressLine, resultsTable } from "@/lib/experiments/format";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { applyPreset, getPreset, presetForKind, presetOverrides, presetSettings, type PresetId } from "@/lib/experiments/presets";
import { changeLine, presetChanges } from "@/lib/experiments/preset-changes";
import { kindLabel } from "@/lib/datasets/kinds";
import { mergeMethod } from "@/lib/experiments/merge";
import { CliError } from "../errors";
import { progressWriter } from "../progress-writer";
import { abandonModelRequests, drainModelRequests } from "@/lib/llm/inflight";
import { roleModel, runRecordOf, type RunRecord } from "@/lib/experiments/run-record";
import { auditText, protocolAudit, type ProtocolAudit } from "@/lib/experiments/protocol-audit";
import { auditLines } from "@/lib/experiments/protocol-audit-text";
import { launchWarnings } from "@/lib/experiments/launch-warnings";

/** The exit code of a `pal run` whose experiment was cancelled while it ran (docs/cli.md). */
export const CANCELLED_EXIT = 4;
import { envNumber } from "@/lib/config";
import { startJoinedWorkers } from "@/lib/experiments/joined-workers";
import { autoExperimentName } from "@/lib/experiments/auto-name";

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
  workers?: string;
  join?: string;
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

/** A preset's settings as text: path, value, source; then what this run changes, in words. */
function presetText(
  p: {
    label: string;
    settings: Array<{ path: string; value: unknown; source: string }>;
    changes: Array<{ setting: string; value: string; preset: string }>;
  } | null,
): string {
  if (!p) return "";
  const lines = [`${p.label}: settings and their sources`, ...p.settings.map((s) => `${s.path}\t${JSON.stringify(s.value)}\t${s.source}`)];
  lines.push(p.changes.length ? "changes from the preset:" : "no changes from the preset");
  for (const c of p.changes) lines.push(`  ${changeLine(c)}`);
  return lines.join("\n");
}

/** The summary's last lines: each role's model as the endpoint served it, and the protocol audit. */
function runRecordLines(record: RunRecord, audit: ProtocolAudit): string {
  const roles = [...new Set(record.roles.map((r) => r.role))].map((role) => {
    const m = roleModel(record, role);
    return `${role} ${m.model ?? "unknown"}${m.mixed ? " (mixed)" : ""}`;
  });
  return `models: ${roles.join(" · ")}\n${auditLines(audit).join("\n")}\n`;
}

/**
 * Ctrl+C (SIGINT) or SIGTERM while `pal run` runs: the experiment is paused (resumable; a paused
 * experiment is no worker's, so the server does not take it over), the jobs this process held go back
 * to the queue, no new request is sent, and the replies already on their way are waited for (at most
 * INTERRUPT_WAIT_MS) so that what they cost reaches the ledger. Streams still out then are cut and
 * recorded with the tokens they received; whole replies (a cut leaves their tokens unknown) get
 * WHOLE_WAIT_MS more, then are recorded with their tokens unknown (issue 40.9). Then the process exits
 * (130 / 143). A second signal records every request still out at once, then exits. Returns the removal
 * of the handlers.
 */
const INTERRUPT_WAIT_MS = 10_000;
const WHOLE_WAIT_MS = 15_000;

function onInterrupt(db: ReturnType<typeof getDb>, experiment: () => number | null, worker: string, tty: boolean): () => void {
  let seen = false;
  const handler = (signal: NodeJS.Signals) => {
    const code = signal === "SIGINT" ? 130 : 143;
    const id = experiment();
    if (seen || id === null) {
      abandonModelRequests(); // their rows, with what each streamed, before the process goes
      process.exit(code);
    }
    seen = true;
    const r = interruptRun(db, id, worker);
    const what =
      r.status === "paused"
        ? `experiment ${id} paused: no new model request is sent; ${r.released} job${r.released === 1 ? "" : "s"} in progress went back to the queue. Resume with pal run --resume ${id} (or Resume on its page)`
        : `experiment ${id} is ${r.status}; nothing more is sent`;
    process.stderr.write(`${tty ? "\n" : ""}${signal === "SIGINT" ? "Ctrl+C" : signal}: ${what}\n`);
    void drainModelRequests(
      (n) =>
        process.stderr.write(
          `waiting up to ${INTERRUPT_WAIT_MS / 1000} s for ${n} model ${n === 1 ? "reply" : "replies"} already sent, to record what they cost (Ctrl+C again to leave now)\n`,
        ),
      {
        maxWaitMs: INTERRUPT_WAIT_MS,
        wholeWaitMs: WHOLE_WAIT_MS,
        onWhole: (n) =>
          process.stderr.write(
            `${n} whole ${n === 1 ? "reply is" : "replies are"} still out (a cut would leave ${n === 1 ? "its" : "their"} tokens unknown): waiting up to ${WHOLE_WAIT_MS / 1000} s more (Ctrl+C again to leave now)\n`,
          ),
      },
    ).finally(() => process.exit(code));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
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
    .option("--workers <n>", "processes that share the run's jobs, so it uses more than one core (default PAL_WORKERS, else 1)")
    .option("--join <id>", "run the jobs of experiment ID beside the pal run that started it (what --workers starts); prints nothing")
    .option(
      "--config <file.json>",
      "the experiment config as JSON (methods with options and labels, models, hicupid, ...); flags override it",
    )
    .option(
      "--preset <id>",
      "start from a paper's protocol: mem-pal or hicupid (every setting sourced; --config and flags merge into it); " +
        "the default without --method is the data set's kind's preset; none: a custom run",
    )
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
      "skip the per-launch limits (methods, repeats, jobs of Admin → Settings) for this run or --resume; whoever runs pal owns the database",
    )
    .action(async (o: RunOpts) => {
      const db = getDb();
      let id: number;
      // Installed before the experiment is created or resumed: a Ctrl+C while its jobs are created (a
      // synchronous step, so the signal waits for it) still pauses it rather than leaving it to the server.
      let known: number | null = null;
      const worker = workerId();
      const stopSignals = o.dryRun ? () => {} : onInterrupt(db, () => known, worker, !!process.stderr.isTTY);
      if (o.join) {
        known = int(o.join, "--join")!;
        await runExperiment(db, known, productionDeps(), { worker, concurrency: int(o.concurrency, "--concurrency") }).finally(stopSignals);
        return;
      }
      const workers = o.workers !== undefined ? int(o.workers, "--workers")! : envNumber("PAL_WORKERS", 1);
      if (!Number.isInteger(workers) || workers < 1) throw new CliError(`--workers: ${workers} is not a whole number of at least 1`);
      if (o.cancelBatch && !o.resume) throw new CliError("--cancel-batch needs --resume ID");
      if (o.retryFailed && !o.resume) throw new CliError("--retry-failed needs --resume ID");
      if (o.resume) {
        id = int(o.resume, "--resume")!;
        known = id;
        if (o.cancelBatch) {
          const [{ cancelJudgeBatches }, { ModelClient }] = await Promise.all([
            import("@/lib/experiments/judge-batch"),
            import("@/lib/llm/client"),
          ]);
          for (const b of await cancelJudgeBatches(db, ModelClient.create(db), id))
            process.stderr.write(`batch ${b.id} (${b.remoteId ?? "not submitted"}) cancelled\n`);
        }
        // --retry-failed queues the failed items again, as the experiment page's Retry failed does.
        resumeExperiment(db, id, { retryFailed: Boolean(o.retryFailed), limits: o.overLimit ? "override" : "enforce" });
        // Stopped before all its jobs existed: create the rest first (the server's preparer would too).
        if (getExperimentRow(db, id).status === "preparing") prepareJobsSync(db, id);
      } else {
        // The preset: --preset, else the config file's `preset` (either may be "none": the project's defaults).
        const { preset: filePreset, ...file } = o.config ? readConfigFile(o.config) : {};
        const presetName = o.preset ?? (filePreset === undefined ? undefined : String(filePreset));
        const named = presetName && presetName !== "none" ? getPreset(presetName, o.preset ? "--preset" : `${o.config}: preset`) : null;
        if (!o.dataset && !(named && o.dryRun)) throw new CliError("--dataset is required (or --resume ID)");
        const ds = o.dataset ? db.select().from(datasets).where(eq(datasets.name, o.dataset)).get() : undefined;
        if (o.dataset && !ds) throw new NotFoundError(`no data set named "${o.dataset}"`);
        if (ds && named && ds.kind !== named.datasetKind) {
          throw new CliError(
            `${o.preset ? "--preset" : "preset"} ${named.id} runs on a ${named.datasetKind} data set; "${ds.name}" is ${ds.kind}`,
          );
        }
        // No --preset: the paper's protocol of the data set's kind; what --method, --config and flags name overrides it
        // (issue 31: a run that names its methods keeps the preset's retrieval, temperatures and repeats). --preset none: project defaults.
        const preset = named ?? (!presetName && ds ? presetForKind(ds.kind) : null);
        if (preset && !named) {
          const namesMethods = Boolean(o.method) || file.methods !== undefined;
          process.stderr.write(
            namesMethods
              ? `no --preset: the methods you named run under the ${preset.id} preset (${preset.label}) for this ${kindLabel(ds!.kind)} data set; every setting you did not name is the preset's; --preset none for the project's defaults\n`
              : `no --preset or --method: running the ${preset.id} preset (${preset.label}) for this ${kindLabel(ds!.kind)} data set; --preset none or --method M for a custom run\n`,
          );
        }
        const flags = {
          // Each method named keeps its options from --config's (and then the preset's) method of that name.
          ...(o.method
            ? {
                methods: withRegisteredLabels(
                  db,
                  list(o.method).map((name) => mergeMethod(Array.isArray(file.methods) ? file.methods : [], { name })),
                ),
              }
            : {}),
          ...(o.task ? { tasks: list(o.task) } : {}),
          ...(o.users ? { users: o.users.trim() === "all" ? "all" : list(o.users) } : {}),
          ...(o.repeats ? { repeats: int(o.repeats, "--repeats") } : {}),
          ...(o.seed ? { seed: int(o.seed, "--seed") } : {}),
          // An external method is named in results by its registered label, the reference too.
          ...(o.reference
            ? { reference: (withRegisteredLabels(db, [{ name: o.reference }])[0] as { label?: string }).label ?? o.reference }
            : {}),
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
        if (!preset && file.methods === undefined && !o.method)
          throw new CliError("a custom run (--preset none) needs --method or --config with methods");
        const config: Record<string, unknown> = preset ? applyPreset(preset.id, { ...file, ...flags }, "--preset") : { ...file, ...flags };
        // A preset run: what it changes from the preset (asked for by --method, --config or flags), said aloud.
        if (preset && !o.dryRun) {
          const changes = presetChanges(parseExperimentConfig(config));
          if (changes.length)
            process.stderr.write(
              `${changes.length} change${changes.length > 1 ? "s" : ""} from the ${preset.id} preset, as asked:\n${changes.map((c) => `  ${changeLine(c)}\n`).join("")}`,
            );
        }
        // A custom run on a data set whose kind has a preset: what it changes from the paper's protocol, said aloud.
        const kindPreset = !preset && ds ? presetForKind(ds.kind) : null;
        if (kindPreset) {
          const changes = presetChanges({ ...parseExperimentConfig(config), preset: kindPreset.id });
          if (changes.length)
            process.stderr.write(
              `custom run: ${changes.length} deviation${changes.length > 1 ? "s" : ""} from the ${kindPreset.id} preset (${kindPreset.label}):\n${changes.map((c) => `  ${changeLine(c)}\n`).join("")}`,
            );
        }
        // Issue 40 item 14: a dialogue run on a data set without the per-user profile files runs its simulator bare.
        if (ds) for (const w of launchWarnings(db, ds.id, ds.kind, parseExperimentConfig(config))) process.stderr.write(`warning: ${w}\n`);
        if (o.dryRun) {
          const full = parseExperimentConfig(config);
          // The preset's settings with their sources, and what this run changes from it.
          const protocol = preset
            ? {
                id: preset.id,
                label: preset.label,
                settings: presetSettings(preset.id as PresetId),
                overrides: presetOverrides(full),
                changes: presetChanges(full),
              }
            : null;
          if (!ds) {
            process.stdout.write(
              o.json
                ? JSON.stringify({ dataset: null, config: full, preset: protocol, estimate: "needs --dataset" }) + "\n"
                : `${presetText(protocol)}\n(the estimate needs --dataset)\n`,
            );
            return;
          }
          const d = dryRun(db, ds.id, config, knownMethod(db));
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
        await sayServices(db, config, process.stderr);
        id = createExperiment(db, {
          name:
            o.name ??
            autoExperimentName({
              dataset: ds.name,
              preset: config.preset,
              methods: config.methods,
              tasks: config.tasks,
              users: config.users,
            }),
          datasetId: ds.id,
          config,
          knownMethod: knownMethod(db),
          limits: o.overLimit ? "override" : "enforce",
        }).id;
        process.stderr.write(`experiment ${id} created\n`);
      }
      known = id;
      const progress = progressWriter(process.stderr, () => progressLine(experimentProgress(db, id)));
      // Nothing may finish for minutes (a slow model): the line is redrawn meanwhile, with the calls in flight
      // (a terminal every second; a log at most every 5 s through the writer, and only when asked: every 30 s).
      const ticker = setInterval(() => progress.tick(), process.stderr.isTTY ? 1000 : 30_000);
      const joined = workers > 1 ? startJoinedWorkers(id, workers - 1, int(o.concurrency, "--concurrency")) : null;
      await runExperiment(db, id, productionDeps(), {
        worker,
        concurrency: int(o.concurrency, "--concurrency"),
        // Judge batches (config judgeBatch): this process waits for them, polling, and shows their state.
        waitForBatch: true,
        batchPollMs: int(o.pollSeconds, "--poll-seconds")! * 1000,
        onBatch: (b) =>
          process.stderr.write(
            `${progress.interrupt()}judge batch ${b.id}: ${b.status.replace("_", " ")} (${b.completed}/${b.requests} answered)\n`,
          ),
        onProgress: () => progress.tick(),
      }).finally(() => {
        clearInterval(ticker);
        stopSignals();
      });
      // This process's lanes end once no job is left or held by another worker: the joined ones are finishing.
      const failedWorkers = joined ? (await joined.done).filter((code) => code !== 0).length : 0;
      progress.end();
      if (failedWorkers) process.stderr.write(`${failedWorkers} of the ${workers - 1} joined worker processes exited with an error\n`);
      const res = experimentResults(db, id);
      const end = experimentProgress(db, id);
      // What the run did, from its record and ledger (never today's settings): models served and the protocol audit.
      const record = runRecordOf(db, id);
      const audit = record.audit ?? protocolAudit(db, id);
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
            runRecord: record,
            protocol: { text: auditText(audit), ...audit },
          }) + "\n",
        );
      } else process.stdout.write(`${resultsTable(res)}${runRecordLines(record, audit)}`);
      // Failed items or a self-paused run are not a clean finish: exit 3, as `pal campaign judge` does.
      // Cancelled from elsewhere (its page, the API): exit 4, so a script never takes it for a finished run.
      if (end.status === "cancelled") {
        process.stderr.write(`experiment ${id} was cancelled (from its page or another process); nothing more is sent\n`);
        process.exitCode = CANCELLED_EXIT;
      } else if (end.status === "paused") {
        process.stderr.write(`experiment ${id} paused${end.error ? `: ${end.error}` : ""}; resume with pal run --resume ${id}\n`);
        process.exitCode = 3;
      } else if (end.failed > 0) {
        process.stderr.write(
          `experiment ${id}: ${label} (their errors: the experiment page; pal run --resume ${id} --retry-failed tries them again)\n`,
        );
        process.exitCode = 3;
      }
    });
}

/**
 * The external methods a new run names, as their services describe themselves (issue 41): said before
 * the run starts, so a service that is down, or one calling models outside the ledger, is seen at once.
 */
async function sayServices(db: ReturnType<typeof getDb>, config: Record<string, unknown>, out: NodeJS.WritableStream): Promise<void> {
  const { findExternalMethod } = await import("@/lib/assistants/external/store");
  const { preflight } = await import("@/lib/assistants/external/check");
  const full = parseExperimentConfig(config);
  const methods = full.methods.flatMap((m) => findExternalMethod(db, m.name) ?? []);
  if (!methods.length) return;
  // Task names map to the input types the method answers (PAL-Bench's three tasks, HiCUPID's questions).
  const TYPES: Record<string, Array<"query" | "requirement" | "selection" | "dialogue" | "question">> = {
    requirement: ["query"],
    solution: ["requirement", "selection"],
    dialogue: ["dialogue"],
  };
  const types = [...new Set(full.tasks.flatMap((t) => TYPES[t] ?? ["question"]))];
  for (const line of await preflight(methods, types)) out.write(`${line}\n`);
}
