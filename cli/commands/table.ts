import fs from "node:fs";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { PAPER_TABLE_FORMATS, PAPER_TABLE_IDS, paperTableFile } from "@/lib/experiments/paper-table";
import { SUMMARIES } from "./summaries";
import { CliError } from "../errors";

export function registerTable(program: Command): void {
  program
    .command("table")
    .description(SUMMARIES.table)
    .argument("<experiment>", "the experiment's id")
    .option("--format <format>", `${PAPER_TABLE_FORMATS.join(", ")}`, "latex")
    .option("--table <id>", `one table: ${PAPER_TABLE_IDS.join(", ")} (default: every table the experiment's tasks make)`)
    .option(
      "--paper-model <name>",
      "HiCUPID: the paper's model to compare with (default: the run's model when the paper has it, else Llama-3.1-8B)",
    )
    .option("--run-only", "this run's rows only: no published rows, differences or notes about them")
    .option("--out <file>", "write to this file instead of stdout")
    .action((experiment: string, o: { format: string; table?: string; paperModel?: string; runOnly?: boolean; out?: string }) => {
      if (!/^\d+$/.test(experiment)) throw new CliError(`experiment: "${experiment}" is not an experiment id`);
      const f = paperTableFile(getDb(), Number(experiment), o.format, {
        table: o.table ?? null,
        paperModel: o.paperModel ?? null,
        runOnly: o.runOnly === true,
      });
      if (o.out) {
        fs.writeFileSync(o.out, f.body);
        process.stderr.write(`wrote ${o.out}\n`);
      } else process.stdout.write(f.body);
    });
}
