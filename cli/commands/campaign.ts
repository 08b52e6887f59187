import fs from "node:fs";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { CliError } from "../errors";

function campaignId(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--campaign: expected a campaign id, got "${raw}"`);
  return n;
}

/** `pal campaign export`: the labels (CSV) or labels + agreement (JSON), the same as the dashboard's export. */
export function registerCampaign(program: Command): void {
  const campaign = program.command("campaign").description("human-evaluation campaigns");
  campaign
    .command("export")
    .description("every label of a campaign as CSV, or labels with the agreement report as JSON")
    .requiredOption("--campaign <id>", "campaign id")
    .option("--format <fmt>", "csv or json", "json")
    .option("--what <what>", "with csv: labels or agreement", "labels")
    .option("--out <file>", "write here instead of stdout")
    .action(async (o: { campaign: string; format: string; what: string; out?: string }) => {
      if (o.what !== "labels" && o.what !== "agreement") throw new CliError(`--what: expected labels or agreement, got "${o.what}"`);
      if (o.format !== "csv" && o.format !== "json") throw new CliError(`--format: expected csv or json, got "${o.format}"`);
      const { exportCampaign } = await import("@/lib/annotation/export");
      const text = exportCampaign(getDb(), campaignId(o.campaign), o.format, o.what);
      if (o.out) fs.writeFileSync(o.out, text);
      else process.stdout.write(text);
    });
  campaign
    .command("list")
    .description("campaigns with their progress")
    .option("--json", "machine-readable output")
    .action(async (o: { json?: boolean }) => {
      const { listCampaigns } = await import("@/lib/annotation/campaigns");
      const rows = listCampaigns(getDb());
      if (o.json) return void console.log(JSON.stringify(rows));
      for (const c of rows) console.log(`${String(c.id).padStart(4)}  ${c.kind.padEnd(18)} ${c.status.padEnd(6)} ${c.done}/${c.assignments} done  ${c.name}`);
    });
}

export { campaignId };
