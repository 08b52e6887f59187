import fs from "node:fs";
import type { Command } from "commander";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { datasets } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { createExperiment } from "@/lib/jobs/create";
import { prepareJobsSync } from "@/lib/jobs/prepare";
import { dryRun } from "@/lib/jobs/dry-run";
import { runExperiment } from "@/lib/jobs/worker";
import { experimentResults } from "@/lib/jobs/results";
import { experimentProgress } from "@/lib/jobs/progress";
import { resumeExperiment, getExperimentRow } from "@/lib/jobs/control";
import { productionDeps, knownMethod, requireModels } from "@/lib/jobs/bind";
import { dryRunTable, progressLine, resultsTable } from "@/lib/jobs/format";
import { CliError } from "../errors";

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
  overLimit?: boolean;
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

export function registerRun(program: Command): void {
  program
    .command("run")
    .description("run an experiment (methods x tasks) to the end; progress on stderr, results on stdout")
    .option("--dataset <name>", "data-set name")
    .option("--method <m,...>", "methods")
    .option("--task <t,...>", "tasks: requirement, solution, dialogue, hicupid")
    .option("--users <id,...>", "a subset of users (default: all)")
    .option("--repeats <n>", "runs with distinct replicate indices")
    .option("--seed <n>", "seed (dialogue templates)")
    .option("--reference <m>", "the method the others are compared with")
    .option("--retriever <kind>", "bm25 or dense")
    .option("--concurrency <n>", "jobs in flight at once", "8")
    .option(
      "--config <file.json>",
      "the experiment config as JSON (methods with options and labels, models, hicupid, ...); flags override it",
    )
    .option("--name <name>", "experiment name")
    .option("--dry-run", "print the calls and tokens it would take; spend nothing")
    .option("--json", "machine-readable output")
    .option("--resume <id>", "resume an experiment")
    .option(
      "--over-limit",
      "skip the per-launch limits (methods, repeats, jobs of Admin → Settings) for this run; whoever runs pal owns the database",
    )
    .action(async (o: RunOpts) => {
      const db = getDb();
      let id: number;
      if (o.resume) {
        id = int(o.resume, "--resume")!;
        resumeExperiment(db, id);
        // Stopped before all its jobs existed: create the rest first (the server's preparer would too).
        if (getExperimentRow(db, id).status === "preparing") prepareJobsSync(db, id);
      } else {
        if (!o.dataset) throw new CliError("--dataset is required (or --resume ID)");
        const ds = db.select().from(datasets).where(eq(datasets.name, o.dataset)).get();
        if (!ds) throw new NotFoundError(`no data set named "${o.dataset}"`);
        const base = o.config ? readConfigFile(o.config) : {};
        const config = {
          ...base,
          ...(o.method ? { methods: list(o.method).map((name) => ({ name })) } : {}),
          ...(o.task ? { tasks: list(o.task) } : {}),
          ...(o.users ? { users: list(o.users) } : {}),
          ...(o.repeats ? { repeats: int(o.repeats, "--repeats") } : {}),
          ...(o.seed ? { seed: int(o.seed, "--seed") } : {}),
          ...(o.reference ? { reference: o.reference } : {}),
          ...(o.retriever ? { retriever: o.retriever } : {}),
        };
        if (o.dryRun) {
          const d = dryRun(db, ds.id, config, knownMethod());
          process.stdout.write(
            o.json
              ? JSON.stringify({
                  dataset: ds.name,
                  rows: d.rows,
                  total: d.total,
                  tokenBasis: d.tokenBasis,
                  builds: d.builds,
                  buildTokenBasis: d.buildTokenBasis,
                  withBuilds: d.withBuilds,
                  limits: d.limits,
                }) + "\n"
              : dryRunTable(d.rows, d.total, d.tokenBasis, d),
          );
          return;
        }
        requireModels(db, config);
        const label = (v: unknown) =>
          Array.isArray(v) ? v.map((m) => (typeof m === "string" ? m : (m?.label ?? m?.name))).join(",") : "?";
        id = createExperiment(db, {
          name: o.name ?? `${o.dataset}: ${label(config.methods)} × ${label(config.tasks)}`,
          datasetId: ds.id,
          config,
          knownMethod: knownMethod(),
          limits: o.overLimit ? "override" : "enforce",
        }).id;
        process.stderr.write(`experiment ${id} created\n`);
      }
      const tty = process.stderr.isTTY;
      await runExperiment(db, id, productionDeps(), {
        concurrency: int(o.concurrency, "--concurrency"),
        onProgress: () => {
          const line = progressLine(experimentProgress(db, id));
          process.stderr.write(tty ? `\r${line}` : `${line}\n`);
        },
      });
      if (tty) process.stderr.write("\n");
      const res = experimentResults(db, id);
      getExperimentRow(db, id);
      if (o.json) {
        const { experiment, status, results, pairwise, ledger } = res;
        process.stdout.write(JSON.stringify({ experiment, status, results, pairwise, ledger, summary: res.summary }) + "\n");
      } else process.stdout.write(resultsTable(res));
    });
}
