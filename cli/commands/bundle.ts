import { runLabel } from "@/lib/experiments/run-label";
import fs from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { getDb } from "@/db/client";
import { exportBundleTo, withPlainBundle } from "@/lib/bundles/gzip";
import { importBundle } from "@/lib/bundles/import";
import { verifyBundle, type VerifyReport } from "@/lib/bundles/verify";
import { recordVerification, verifyExperiment } from "@/lib/bundles/verifications";
import { runCardOfBundle, runCardOfExperiment } from "@/lib/bundles/run-card";
import { updateTask } from "@/lib/bundles/tasks";
import { AppError } from "@/lib/errors";
import { SUMMARIES } from "./summaries";
import { CliError } from "../errors";

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const idArg = (s: string) => {
  if (!/^\d+$/.test(s)) throw new CliError(`experiment: "${s}" is not an experiment id`);
  return Number(s);
};

/** The web's background tasks (lib/bundles/tasks.ts) run these commands with a status file to write. */
const statusOption = () =>
  new Option("--status <file>", "write progress and the outcome to this status file (the web app's tasks)").hideHelp();

/** Runs `fn` reporting to the status file `status` (when given): its steps, then ready or failed. */
async function withStatus<R>(
  status: string | undefined,
  fn: (onStep: (done: number, total: number, what: string) => void) => Promise<R>,
): Promise<R> {
  let last = 0;
  const onStep = (done: number, total: number, step: string) => {
    if (!status || Date.now() - last < 200) return;
    last = Date.now();
    updateTask(status, { done, total, step });
  };
  try {
    return await fn(onStep);
  } catch (e) {
    if (status) updateTask(status, { state: "failed", error: e instanceof AppError || e instanceof CliError ? e.message : String(e) });
    throw e;
  }
}

function printReport(r: VerifyReport): void {
  const say = (s: string) => process.stdout.write(`${s}\n`);
  say(`experiment ${r.experiment.id} (${r.experiment.name}) from ${r.file}`);
  say(`jobs: ${r.jobs}, replayed ${r.replayed}, identical ${r.identical}, different ${r.different.length}`);
  for (const d of r.different.slice(0, 20))
    say(`  job ${d.job} (${d.method} / ${d.task} / ${d.item}, ${runLabel(d.replicate)}): ${d.what}`);
  if (r.different.length > 20) say(`  … and ${r.different.length - 20} more`);
  say(`requests with no bundled reply: ${r.requests}`);
  for (const m of r.missingReplies.slice(0, 20)) say(`  ${m.where}: ${m.purpose} (${m.requests})`);
  say(
    `memory versions: ${r.memory.versions}, identical ${r.memory.identical}${r.memory.different.length ? `, different: ${r.memory.different.join(", ")}` : ""}`,
  );
  if (r.batches.batches)
    say(
      `judge batches: ${r.batches.batches}, lines used ${r.batches.lines}, replayed from the bundle ${r.batches.replayed}${
        r.batches.notAsked.length ? `; not asked by the replay: ${r.batches.notAsked.slice(0, 5).join(", ")}` : ""
      }`,
    );
  say(`paper tables: ${r.tables.identical ? "identical" : "different"}`);
  // External methods' jobs need their service: not replayed, so not counted as verified (nor as failed).
  for (const n of r.notReplayed)
    say(
      `needs the external service ${n.method} (not replayed): ${n.jobs} jobs of ${n.label}${n.failed ? ` (${n.failed} failed in the run)` : ""}, their results taken from the bundle as they are`,
    );
  const apart = r.notReplayed.reduce((s, n) => s + n.jobs, 0);
  say(
    r.ok
      ? apart
        ? `verified: every replayable number replayed identically (${(r.ms / 1000).toFixed(1)} s); ${apart} jobs of external methods not replayed (above)`
        : `verified: every number replayed identically (${(r.ms / 1000).toFixed(1)} s)`
      : "NOT verified: the replay differs from the bundle",
  );
}

export function registerBundle(program: Command): void {
  const bundle = program.command("bundle").description(SUMMARIES.bundle);

  bundle
    .command("export")
    .description("write an experiment (results, memory, marks, every model request and reply it used; no keys) to one SQLite file")
    .argument("<experiment>", "the experiment's id")
    .requiredOption("--out <file>", "the bundle file to create (refused when it exists); a name ending in .gz is gzip-compressed")
    .option("--with-data", "also carry the data set's rows the run read (for a lab that lacks the data set)")
    .option("--json", "machine-readable output")
    .addOption(statusOption())
    .action(async (experiment: string, o: { out: string; withData?: boolean; json?: boolean; status?: string }) => {
      const r = await withStatus(o.status, (onStep) => exportBundleTo(getDb(), idArg(experiment), o.out, { withData: o.withData, onStep }));
      if (o.status) updateTask(o.status, { state: "ready", bytes: r.bytes, step: "done" });
      if (o.json) console.log(JSON.stringify(r));
      else
        console.log(
          `wrote ${r.file} (${mb(r.bytes)} in ${(r.ms / 1000).toFixed(1)} s: ${r.rows.jobs ?? 0} jobs, ${r.rows.llm_calls ?? 0} ledger rows, ${r.rows.llm_cache ?? 0} replies)`,
        );
    });

  bundle
    .command("import")
    .description("import a bundle's run as a new experiment, marked as imported (a run imported before is not duplicated)")
    .argument("<file>", "a file written by `pal bundle export`")
    .option("--json", 'machine-readable output: {"experiment": {"id": …}}')
    .addOption(statusOption())
    .addOption(new Option("--source <name>", "the name the import records as where the bundle came from").hideHelp())
    .addOption(new Option("--imported-by <user>", "the user importing (the web app)").hideHelp())
    .action(async (file: string, o: { json?: boolean; status?: string; source?: string; importedBy?: string }) => {
      const source = o.source ?? path.basename(file);
      const importedBy = o.importedBy && /^\d+$/.test(o.importedBy) ? Number(o.importedBy) : null;
      const r = await withStatus(o.status, (onStep) =>
        withPlainBundle(file, (plain) => importBundle(getDb(), plain, { source, importedBy, onStep })),
      );
      if (o.status)
        updateTask(o.status, { state: "ready", experimentId: r.experimentId, alreadyImported: r.alreadyImported, step: "done" });
      if (o.json) console.log(JSON.stringify({ experiment: { id: r.experimentId }, alreadyImported: r.alreadyImported, ms: r.ms }));
      else if (r.alreadyImported) console.log(`this run is here already as experiment ${r.experimentId}; nothing was imported`);
      else
        console.log(
          `imported as experiment ${r.experimentId} in ${(r.ms / 1000).toFixed(1)} s (${r.rows.jobs ?? 0} jobs, ${r.rows.llm_calls ?? 0} ledger rows${
            !r.datasetFromBundle
              ? ""
              : r.datasetReused
                ? `; its data set's rows are those an earlier bundle brought, "${r.datasetName}" (identical, not copied again)`
                : `; its data set's rows came with the bundle as "${r.datasetName}"`
          })`,
        );
    });

  bundle
    .command("verify")
    .description("re-run every job of a bundle with the network closed, answering from its replies, and compare the results")
    .argument(
      "<source>",
      "a file written by `pal bundle export`, or an experiment id of PAL_DB (an imported run: the result is kept as its badge)",
    )
    .option("--concurrency <n>", "jobs at once", "8")
    .option("--json", "machine-readable output")
    .addOption(statusOption())
    .addOption(new Option("--verified-by <user>", "the user verifying (the web app)").hideHelp())
    .action(async (source: string, o: { concurrency: string; json?: boolean; status?: string; verifiedBy?: string }) => {
      if (!/^\d+$/.test(o.concurrency) || Number(o.concurrency) < 1)
        throw new CliError(`--concurrency: "${o.concurrency}" is not a positive whole number`);
      const concurrency = Number(o.concurrency);
      const r = await withStatus(o.status, async (onStep) => {
        if (!/^\d+$/.test(source))
          return withPlainBundle(source, (plain) => verifyBundle(plain, { dataFrom: getDb(), concurrency, onStep }));
        // A run of this database: replayed from the replies it holds, the outcome kept on it.
        const id = idArg(source);
        const rep = await verifyExperiment(getDb(), id, { concurrency, onStep });
        const by = o.verifiedBy && /^\d+$/.test(o.verifiedBy) ? Number(o.verifiedBy) : null;
        recordVerification(getDb(), id, rep, by);
        return rep;
      });
      r.file = /^\d+$/.test(source) ? "the replies this database holds" : source;
      if (o.status) updateTask(o.status, { state: "ready", step: "done", done: r.jobs, total: r.jobs });
      if (o.json) console.log(JSON.stringify(r));
      else printReport(r);
      if (!r.ok) process.exitCode = 3;
    });

  bundle
    .command("card")
    .description("the run card (models as served, parameters sent, protocol audit, data hash, costs, version, paper tables)")
    .argument("<source>", "a bundle file, or an experiment id of this database")
    .option("--format <format>", "md or html", "md")
    .option("--out <file>", "write to this file instead of stdout")
    .action(async (source: string, o: { format: string; out?: string }) => {
      if (o.format !== "md" && o.format !== "html") throw new CliError(`--format: "${o.format}" is not one of md, html`);
      const format = o.format;
      const card = /^\d+$/.test(source)
        ? runCardOfExperiment(getDb(), Number(source), format)
        : await withPlainBundle(source, (plain) => runCardOfBundle(plain, format));
      if (o.out) {
        fs.writeFileSync(o.out, card);
        process.stderr.write(`wrote ${o.out}\n`);
      } else process.stdout.write(card);
    });
}
