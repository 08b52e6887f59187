import fs from "node:fs";
import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import type { ImportProgress, ImportResult } from "@/lib/datasets/types";
import { isAppError } from "@/lib/errors";
import { DATASET_KIND_LIST } from "@/lib/datasets/kinds";
import { CliError } from "../errors";

// Library modules load inside the actions: `pal user ...` need not load the importers (the kind
// registry is small and loads each importer on use).

/**
 * Progress on stderr as one rewritten line, only on a terminal: when stderr is a file or a pipe,
 * a failure must stay the single line there.
 */
function progressPrinter(): ((p: ImportProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let lastDraw = 0;
  return (p) => {
    const now = Date.now();
    if (now - lastDraw < 100 && p.phase !== "done") return;
    lastDraw = now;
    const pct = p.total ? Math.floor((100 * p.done) / p.total) : 100;
    process.stderr.write(`\r${`${p.phase.padEnd(10)} ${String(pct).padStart(3)}% ${p.detail ?? ""}`.slice(0, 78).padEnd(78)}`);
    if (p.phase === "done") process.stderr.write("\r".padEnd(79) + "\r");
  };
}

function printResult(r: ImportResult, json?: boolean) {
  if (json) return void console.log(JSON.stringify(r));
  const counts = Object.entries(r.stats)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  console.log(`imported ${r.kind} data set "${r.name}"${r.language ? ` (${r.language})` : ""}: ${counts}`);
  const w = r.report.warnings;
  if (w.length) {
    console.log(`${w.length} kind(s) of warning:`);
    for (const x of w) console.log(`  ${x.code} (${x.count}): ${x.message}${x.examples[0] ? ` e.g. ${x.examples[0]}` : ""}`);
  }
}

type ImportFlags = { name?: string; lang?: string; replace?: boolean; json?: boolean; ndjson?: boolean; importedBy?: string };

/**
 * `--ndjson` is how the web upload runs an import (in a child process, so the server stays
 * responsive): progress `{phase, done, total, detail}` lines at most every 40 ms per phase, then one
 * `{result}` or `{error}` line, all on stdout.
 */
function ndjsonProgress(): (p: ImportProgress) => void {
  let last = { phase: "", at: 0 };
  return (p) => {
    const now = Date.now();
    if (p.phase === last.phase && p.done < p.total && now - last.at < 40) return;
    last = { phase: p.phase, at: now };
    console.log(JSON.stringify({ phase: p.phase, done: p.done, total: p.total, detail: p.detail }));
  };
}

async function runImportCommand(
  o: ImportFlags,
  importer: (onProgress: ((p: ImportProgress) => void) | undefined, importedBy: number | undefined) => Promise<ImportResult>,
) {
  const importedBy = o.importedBy === undefined ? undefined : Number(o.importedBy);
  if (importedBy !== undefined && !Number.isInteger(importedBy))
    throw new CliError(`--imported-by: expected a user id, got "${o.importedBy}"`);
  if (!o.ndjson) return printResult(await importer(progressPrinter(), importedBy), o.json);
  try {
    console.log(JSON.stringify({ result: await importer(ndjsonProgress(), importedBy) }));
  } catch (e) {
    const msg = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    // A refused input is the expected outcome and its message is the whole story; anything else is a bug.
    if (!isAppError(e)) process.stderr.write(`${e instanceof Error ? e.stack : msg}\n`);
    console.log(JSON.stringify({ error: isAppError(e) ? msg : `import failed: ${msg}` }));
    process.exitCode = 1;
  }
}

function importOptions(cmd: Command): Command {
  return cmd
    .option("--name <name>", "data-set name")
    .option("--replace", "replace an existing data set of the same name")
    .option("--json", "machine-readable output")
    .option("--ndjson", "progress and the result (or error) as JSON lines on stdout")
    .option("--imported-by <userId>", "record which account imported it");
}

export function registerData(program: Command): void {
  const imp = program.command("import").description(SUMMARIES.import);

  // One subcommand per registered data-set kind.
  for (const kind of DATASET_KIND_LIST) {
    const cmd = imp.command(kind.id).description(kind.cliDescription).argument("<paths...>", "files or directories");
    if (kind.upload.languageChoice) cmd.option("--lang <lang>", "zh or en (detected when not given)");
    importOptions(cmd).action(async (paths: string[], o: ImportFlags) => {
      if (o.lang && o.lang !== "zh" && o.lang !== "en") throw new CliError(`--lang: expected zh or en, got "${o.lang}"`);
      const lang = o.lang as "zh" | "en" | undefined;
      const importer = await kind.importer();
      await runImportCommand(o, (onProgress, importedBy) =>
        importer(getDb(), { paths, name: o.name, lang, replace: o.replace, importedBy, onProgress }),
      );
    });
  }

  const exp = program.command("export").description(SUMMARIES.export);
  exp
    .command("experiment")
    .description(
      "an experiment's per-item results: one JSON line per done job (task, method, replicate, item, question, output, reference, scores)",
    )
    .argument("<id>", "experiment id")
    .option("--items", "one JSON line per job (the only form so far)")
    .option("--out <file>", "output file (default: stdout)")
    .action(async (id: string, o: { items?: boolean; out?: string }) => {
      if (!o.items) throw new CliError("pal export experiment: add --items (one JSON line per job)");
      if (!/^\d+$/.test(id)) throw new CliError(`experiment id: expected a number, got "${id}"`);
      const { exportExperimentItems } = await import("@/lib/experiments/export-items");
      await writeLines(o.out, (write) => exportExperimentItems(getDb(), Number(id), write));
    });
  exp
    .command("palset")
    .description("write the published PAL-Set JSON again (equal value for value to what was imported)")
    .requiredOption("--dataset <name>", "data-set name")
    .option("--user <id>", "only this user id")
    .option("--out <file>", "output file (default: stdout)")
    .action(async (o: { dataset: string; user?: string; out?: string }) => {
      const { exportPalset } = await import("@/lib/datasets/palset/export");
      await exportPalset(getDb(), { dataset: o.dataset, user: o.user, out: o.out });
    });

  program
    .command("stats")
    .description(SUMMARIES.stats)
    .requiredOption("--dataset <name>", "data-set name")
    .option("--json", "machine-readable output")
    .action(async (o: { dataset: string; json?: boolean }) => {
      const { getDatasetStats } = await import("@/lib/datasets/stats");
      const s = getDatasetStats(getDb(), o.dataset);
      if (o.json) console.log(JSON.stringify(s));
      else for (const [k, v] of Object.entries(s)) console.log(`${k.padEnd(20)} ${v}`);
    });
}

/** Lines to a file (written to a temp name, renamed when complete) or to stdout, waiting when the stream is full. */
async function writeLines(out: string | undefined, produce: (write: (line: string) => Promise<void>) => Promise<number>): Promise<void> {
  const target = out ? `${out}.partial` : null;
  const stream = target ? fs.createWriteStream(target) : process.stdout;
  const write = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (stream.write(line)) resolve();
      else {
        stream.once("drain", resolve);
        stream.once("error", reject);
      }
    });
  const n = await produce(write);
  if (target) {
    await new Promise<void>((resolve, reject) => (stream as fs.WriteStream).end((e?: Error | null) => (e ? reject(e) : resolve())));
    fs.renameSync(target, out!);
    process.stderr.write(`wrote ${n} lines to ${out}\n`);
  }
}
