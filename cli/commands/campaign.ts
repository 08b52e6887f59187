import fs from "node:fs";
import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import { CliError } from "../errors";

function campaignId(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--campaign: expected a campaign id, got "${raw}"`);
  return n;
}

/** `pal campaign export`: the labels (CSV) or labels + agreement (JSON), the same as the dashboard's export. */
export function registerCampaign(program: Command): void {
  const campaign = program.command("campaign").description(SUMMARIES.campaign);
  campaign
    .command("export")
    .description("every label of a campaign as CSV, or labels with the agreement report as JSON")
    .requiredOption("--campaign <id>", "campaign id")
    .option(
      "--format <fmt>",
      "csv, json, or parquet (a Hugging Face datasets folder: labels.parquet + README.md card; needs --out DIR)",
      "json",
    )
    .option("--what <what>", "with csv: labels or agreement", "labels")
    .option("--out <file>", "write here instead of stdout")
    .action(async (o: { campaign: string; format: string; what: string; out?: string }) => {
      if (o.what !== "labels" && o.what !== "agreement") throw new CliError(`--what: expected labels or agreement, got "${o.what}"`);
      if (o.format === "parquet") {
        if (!o.out) throw new CliError("--out: a Parquet export is a folder (labels.parquet and README.md); name it with --out DIR");
        const { campaignParquet } = await import("@/lib/annotation/parquet-export");
        const p = await campaignParquet(getDb(), campaignId(o.campaign));
        fs.mkdirSync(o.out, { recursive: true });
        fs.writeFileSync(`${o.out}/labels.parquet`, p.parquet);
        fs.writeFileSync(`${o.out}/README.md`, p.card);
        return void console.log(`${p.rows} labels written to ${o.out}/labels.parquet (card: ${o.out}/README.md)`);
      }
      if (o.format !== "csv" && o.format !== "json") throw new CliError(`--format: expected csv, json or parquet, got "${o.format}"`);
      const { exportCampaign } = await import("@/lib/annotation/export");
      const text = exportCampaign(getDb(), campaignId(o.campaign), o.format, o.what);
      if (o.out) fs.writeFileSync(o.out, text);
      else process.stdout.write(text);
    });
  campaign
    .command("judge")
    .description("run an LLM judge over a campaign's items (resumable: judged items are skipped; progress on stderr)")
    .requiredOption("--campaign <id>", "campaign id")
    .option("--judge <name>", 'judge model configuration: "judge" or a named one such as "judge:gpt4o"', "judge")
    .option("--temperature <t>", "sampling temperature of the judge calls (0, as the papers' public code calls its judges)", "0")
    .option("--tie-margin <m>", "pairwise dialogues: a tie when the average scores differ by at most this", "0")
    .option("--seed <n>", "HiCUPID: seed of the answer slot shown to the judge", "1")
    .option("--dry-run", "only print how many calls the run would make")
    .option("--batch", "send the calls through the endpoint's Batch API (half price, up to 24 h); waits, polling, until done")
    .option("--poll-seconds <n>", "batch mode: seconds between polls", "30")
    .option("--cancel-batch", "cancel the run's batch in progress")
    .option("--json", "machine-readable output")
    .action(
      async (o: {
        campaign: string;
        batch?: boolean;
        pollSeconds: string;
        cancelBatch?: boolean;
        judge: string;
        temperature: string;
        tieMargin: string;
        seed: string;
        dryRun?: boolean;
        json?: boolean;
      }) => {
        const num = (flag: string, v: string) => {
          const n = Number(v);
          if (v.trim() === "" || !Number.isFinite(n)) throw new CliError(`${flag}: expected a number, got "${v}"`);
          return n;
        };
        const opts = {
          modelConfig: o.judge,
          temperature: num("--temperature", o.temperature),
          tieMargin: num("--tie-margin", o.tieMargin),
          seed: num("--seed", o.seed),
        };
        const { estimateLlmJudge, runLlmJudge } = await import("@/lib/annotation/llm-judge");
        const { getCampaign } = await import("@/lib/annotation/campaigns");
        const db = getDb();
        const id = campaignId(o.campaign);
        if (o.dryRun) {
          const est = estimateLlmJudge(db, id, opts);
          if (o.json) return void console.log(JSON.stringify(est));
          return void console.log(
            `${est.judge} with ${est.modelConfig} (${est.model}): ${est.pending} verdicts to make over ${est.items} items, ${est.calls} calls (${est.totalCalls} from scratch)`,
          );
        }
        // The campaign's creator owns a run started from the shell. The run checks the settings itself.
        const owner = getCampaign(db, id).createdBy;
        const { ModelClient } = await import("@/lib/llm/client");
        if (o.cancelBatch) {
          const { ensureLlmJudgeRun } = await import("@/lib/annotation/llm-judge");
          const { cancelBatchJudge } = await import("@/lib/annotation/llm-judge/batch-run");
          const b = await cancelBatchJudge(db, ModelClient.create(db), ensureLlmJudgeRun(db, id, opts, owner).runId);
          return void console.log(o.json ? JSON.stringify(b) : `batch ${b.id} (${b.remoteId}) cancelled`);
        }
        if (o.batch) {
          // Batch mode: submit, then poll until the endpoint finished it; a restart resumes the same batch.
          const { runBatchJudge } = await import("@/lib/annotation/llm-judge/batch-run");
          const step = await runBatchJudge(db, ModelClient.create(db), id, opts, owner, {
            pollMs: num("--poll-seconds", o.pollSeconds) * 1000,
            onStep: (s) => {
              if (s.batch)
                process.stderr.write(`batch ${s.batch.id}: ${s.batch.status} (${s.batch.completed}/${s.batch.requests} answered)\n`);
            },
          });
          if (step.state !== "done")
            throw new CliError(`batch ${step.batch.id} ${step.batch.status}: ${step.batch.error ?? "see the endpoint"}`, 3);
          const r = step.result;
          if (r.failed || r.paused) process.exitCode = 3;
          if (o.json) return void console.log(JSON.stringify({ ...r, batch: step.batch }));
          return void console.log(
            `run ${r.runId}: ${r.judged}/${r.total} judged through batch ${step.batch?.id ?? "-"}, ${r.failed} failed`,
          );
        }
        const r = await runLlmJudge(db, ModelClient.create(db), id, opts, owner, (p) => {
          process.stderr.write(`judged ${p.judged}/${p.total}${p.failed ? `, ${p.failed} failed` : ""}\n`);
        });
        if (r.failed || r.paused) process.exitCode = 3;
        if (r.paused) process.stderr.write(`run ${r.runId} ${r.paused}; run the same command again to resume\n`);
        if (o.json) return void console.log(JSON.stringify(r));
        console.log(`run ${r.runId}: ${r.judged}/${r.total} judged (${r.newlyJudged} now), ${r.failed} failed, ${r.requests} requests`);
      },
    );
  campaign
    .command("create")
    .description(
      "create a campaign from a JSONL file of items or from an experiment's outputs: dealt out to --annotators, or served to participants from a --link",
    )
    .requiredOption("--name <name>", "campaign name (researchers only: annotators and participants never see it)")
    .requiredOption("--kind <kind>", "pairwise-dialogue, hicupid-ab, output-rating, answer-correctness, ...")
    .option("--title <title>", "the title annotators and participants see (default: the kind's neutral title)")
    .option("--show-system-names", "create it although the title or guidelines name a compared system (reported as not blind)")
    .option("--items <file>", "items, one JSON object a line (the kind's upload format)")
    .option(
      "--experiment <id>",
      "instead of --items: the outputs of this experiment (pairwise-dialogue: two methods' dialogues; hicupid-ab and answer-correctness: one method's answers)",
    )
    .option("--method <key>", "with --experiment: the method on side A")
    .option("--method-b <key>", "with --experiment, pairwise-dialogue: the method on side B")
    .option("--run <n>", "with --experiment: which run (from 1)", "1")
    .option("--k <k>", "labels per item", "3")
    .option("--annotators <ids>", "user ids, comma-separated (fixed assignment)")
    .option("--link", "open the campaign to a participant link /join/<token>; items are served as people work")
    .option("--hold-seconds <s>", "link: seconds a served item stays held for its participant", "600")
    .option("--quota <n>", "link: most items per participant")
    .option("--max-participants <n>", "link: cap on participants")
    .option("--completion-code <code>", "link: Prolific completion code")
    .option("--screenout-code <code>", "link: Prolific code for a participant who fails the checks")
    .option("--gold <file>", 'link: gold items / attention checks, JSONL with a "gold" object per line')
    .option("--gold-rate <r>", "link: share of served items that are gold (0 to 1)", "0.1")
    .option("--min-gold-accuracy <r>", "link: below this gold accuracy a participant is screened out", "0.5")
    .option("--attention-rate <r>", "link: share of served items that are generated attention checks (0 to 0.5)", "0")
    .option("--max-attention-fails <n>", "link: a participant failing more attention checks than this is screened out", "1")
    .option("--order <order>", "link: serve least-labelled or most-disagreement items first", "least-labelled")
    .option("--min-seconds <s>", "link: answers faster than this are flagged", "3")
    .option("--consent <file>", "link: a consent statement (Markdown) to accept before the first item")
    .option("--guidelines <file>", "guidelines (Markdown); default: the kind's")
    .option("--owner <email>", "the campaign's owner (default: the first admin)")
    .option("--json", "machine-readable output")
    .action(async (o: Record<string, string | boolean | undefined>) => {
      const { createCampaign } = await import("@/lib/annotation/campaigns");
      const { users } = await import("@/db/schema");
      const { and, asc, eq } = await import("drizzle-orm");
      const db = getDb();
      const read = (flag: string, file: unknown) => {
        if (typeof file !== "string") return undefined;
        try {
          return fs.readFileSync(file, "utf8");
        } catch (e) {
          throw new CliError(`${flag}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? e})`);
        }
      };
      const num = (flag: string, v: unknown, optional = false) => {
        if (v === undefined && optional) return null;
        const n = Number(v);
        if (typeof v !== "string" || v.trim() === "" || !Number.isFinite(n)) throw new CliError(`${flag}: expected a number, got "${v}"`);
        return n;
      };
      const annotatorIds =
        typeof o.annotators === "string"
          ? o.annotators.split(",").map((x) => {
              const n = Number(x.trim());
              if (!Number.isInteger(n) || n < 1) throw new CliError(`--annotators: expected user ids, got "${x}"`);
              return n;
            })
          : [];
      const owner =
        typeof o.owner === "string"
          ? db.select({ id: users.id }).from(users).where(eq(users.email, o.owner.toLowerCase())).get()
          : db
              .select({ id: users.id })
              .from(users)
              .where(and(eq(users.role, "admin"), eq(users.disabled, false)))
              .orderBy(asc(users.id))
              .get();
      if (!owner)
        throw new CliError(
          typeof o.owner === "string" ? `--owner: no user ${o.owner}` : "no admin account: create one first (pal user create)",
        );
      if ((o.items === undefined) === (o.experiment === undefined)) throw new CliError("--items or --experiment: give one of them");
      if (o.experiment !== undefined && typeof o.method !== "string") throw new CliError("--method: name the method on side A");
      const source =
        o.experiment !== undefined
          ? {
              kind: "experiment" as const,
              experimentId: num("--experiment", o.experiment)!,
              methodA: String(o.method),
              methodB: typeof o.methodB === "string" ? o.methodB : undefined,
              replicate: num("--run", o.run)! - 1,
            }
          : { kind: "upload" as const, fileName: String(o.items), text: read("--items", o.items)! };
      const gold = read("--gold", o.gold);
      const link = o.link === true;
      const r = createCampaign(
        db,
        {
          name: String(o.name),
          kind: String(o.kind),
          annotatorTitle: o.title === undefined ? undefined : String(o.title),
          showSystemNames: o.showSystemNames === true,
          perItem: num("--k", o.k)!,
          annotatorIds,
          guidelines: read("--guidelines", o.guidelines),
          source,
          link,
          ...(link
            ? {
                crowd: {
                  holdSeconds: num("--hold-seconds", o.holdSeconds),
                  quota: num("--quota", o.quota, true),
                  maxParticipants: num("--max-participants", o.maxParticipants, true),
                  completionCode: typeof o.completionCode === "string" ? o.completionCode : null,
                  screenoutCode: typeof o.screenoutCode === "string" ? o.screenoutCode : null,
                  goldRate: num("--gold-rate", o.goldRate),
                  minGoldAccuracy: num("--min-gold-accuracy", o.minGoldAccuracy),
                  attentionRate: num("--attention-rate", o.attentionRate),
                  maxAttentionFails: num("--max-attention-fails", o.maxAttentionFails),
                  order: String(o.order),
                  minSeconds: num("--min-seconds", o.minSeconds),
                  consent: read("--consent", o.consent) ?? null,
                },
                ...(gold !== undefined ? { gold: { fileName: String(o.gold), text: gold } } : {}),
              }
            : gold !== undefined
              ? { gold: { fileName: String(o.gold), text: gold } }
              : {}),
        },
        owner.id,
      );
      if (o.json)
        return void console.log(
          JSON.stringify({ campaign: { id: r.id, items: r.items, assignments: r.assignments }, ...(r.link ? { link: r.link } : {}) }),
        );
      console.log(`campaign ${r.id}: ${r.items} items${r.link ? `, participant link ${r.link}` : `, ${r.assignments} assignments`}`);
    });
  campaign
    .command("list")
    .description("campaigns with their progress")
    .option("--json", "machine-readable output")
    .action(async (o: { json?: boolean }) => {
      const { listCampaigns } = await import("@/lib/annotation/campaigns");
      const rows = listCampaigns(getDb());
      if (o.json) return void console.log(JSON.stringify(rows));
      for (const c of rows)
        console.log(`${String(c.id).padStart(4)}  ${c.kind.padEnd(18)} ${c.status.padEnd(6)} ${c.done}/${c.assignments} done  ${c.name}`);
    });
}

export { campaignId };
