import fs from "node:fs";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { PAPER_TABLE_FORMATS, PAPER_TABLE_IDS, paperTableFile } from "@/lib/experiments/paper-table";
import { acrossTableFile, parseExperimentIds } from "@/lib/experiments/paper-table/across";
import { SUMMARIES } from "./summaries";
import { CliError } from "../errors";

type TableOptions = { format: string; table?: string; paperModel?: string; runOnly?: boolean; out?: string; experiments?: string };

export function registerTable(program: Command): void {
  program
    .command("table")
    .description(SUMMARIES.table)
    .argument("[experiment]", "the experiment's id (or --experiments for a table across several)")
    .option("--experiments <ids>", "a table across 2 to 8 experiments of the same task, e.g. 3,5,7: one block of rows per experiment")
    .option("--format <format>", `${PAPER_TABLE_FORMATS.join(", ")}`, "latex")
    .option("--table <id>", `one table: ${PAPER_TABLE_IDS.join(", ")} (default: every table the experiment's tasks make)`)
    .option(
      "--paper-model <name>",
      "HiCUPID: the paper's model to compare with (default: the run's model when the paper has it, else Llama-3.1-8B)",
    )
    .option("--run-only", "this run's rows only: no published rows, differences or notes about them")
    .option("--out <file>", "write to this file instead of stdout")
    .action((experiment: string | undefined, o: TableOptions) => {
      const opts = { table: o.table ?? null, paperModel: o.paperModel ?? null, runOnly: o.runOnly === true };
      let f: { body: string };
      if (o.experiments !== undefined) {
        if (experiment !== undefined) throw new CliError("give either an experiment id or --experiments, not both");
        f = acrossTableFile(getDb(), parseExperimentIds(o.experiments), o.format, opts);
      } else {
        if (experiment === undefined) throw new CliError("experiment: give an experiment id (or --experiments 3,5,7)");
        if (!/^\d+$/.test(experiment)) throw new CliError(`experiment: "${experiment}" is not an experiment id`);
        f = paperTableFile(getDb(), Number(experiment), o.format, opts);
      }
      if (o.out) {
        fs.writeFileSync(o.out, f.body);
        process.stderr.write(`wrote ${o.out}\n`);
      } else process.stdout.write(f.body);
    });
}
