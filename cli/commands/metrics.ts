import fs from "node:fs";
import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import type { TieRule } from "@/lib/agreement";
import { CliError } from "../errors";

/** Reads a file, or stdin for "-". */
function readInput(file: string): string {
  try {
    return fs.readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

interface BleuLine {
  obj: Record<string, unknown>;
  references: string[];
  candidate: string;
}

/** Validates one JSONL line; errors name the line and the field. */
function parseBleuLine(text: string, lineNo: number): BleuLine {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new CliError(`line ${lineNo}: not valid JSON`);
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new CliError(`line ${lineNo}: expected a JSON object`);
  const o = obj as Record<string, unknown>;
  if (typeof o.candidate !== "string") throw new CliError(`line ${lineNo}: field "candidate" must be a string`);
  let references: string[];
  if (o.references !== undefined) {
    if (!Array.isArray(o.references) || o.references.length === 0 || !o.references.every((r) => typeof r === "string")) {
      throw new CliError(`line ${lineNo}: field "references" must be a non-empty array of strings`);
    }
    references = o.references as string[];
  } else if (typeof o.reference === "string") {
    references = [o.reference];
  } else {
    throw new CliError(`line ${lineNo}: field "reference" must be a string (or give "references": [...])`);
  }
  return { obj: o, references, candidate: o.candidate };
}

function writeOutput(out: string | undefined, text: string): void {
  if (!out) return void process.stdout.write(text);
  try {
    fs.writeFileSync(out, text);
  } catch (e) {
    throw new CliError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const TIE_RULES: TieRule[] = ["tie", "first", "adjudicate", "none"];

export function registerMetrics(program: Command): void {
  const metrics = program.command("metrics").description(SUMMARIES.metrics);

  metrics
    .command("bleu")
    .description("Mem-PAL BLEU-1..4 (jieba + NLTK sentence_bleu, method1) for each {reference|references, candidate} line")
    .requiredOption("--in <file>", "JSONL input, one {reference, candidate} or {references: [...], candidate} per line (- for stdin)")
    .option("--out <file>", "write the JSONL result here instead of stdout")
    .option("--json", "output is always JSONL; accepted for symmetry with other commands")
    .addHelpText(
      "after",
      `
Each output line is the input object plus "bleu": [b1, b2, b3, b4] in 0..1, in input order.
With several references each is scored alone and the maximum per order is kept. Blank lines are skipped.

Example:
  $ printf '%s\\n' '{"reference":"我想去北京大学看看","candidate":"我想去北京看看"}' > pairs.jsonl
  $ pal metrics bleu --in pairs.jsonl
  {"reference":"我想去北京大学看看","candidate":"我想去北京看看","bleu":[0.8,0.6324555320336759,0.5143157015215767,0.28574404296988]}

Scores are in 0..1; the papers report them x 100.`,
    )
    .action(async (opts: { in: string; out?: string }) => {
      // Imported here so other commands do not pay for loading jieba's native addon and dictionary.
      const { memPalBleuTokens, segment } = await import("@/lib/metrics");
      const lines = readInput(opts.in).split(/\r?\n/);
      // Validate every line before scoring so a bad file produces no partial output.
      const parsed: Array<BleuLine | null> = lines.map((l, i) => (l.trim() === "" ? null : parseBleuLine(l, i + 1)));
      const segCache = new Map<string, string[]>();
      const seg = (t: string) => {
        let s = segCache.get(t);
        if (!s) {
          s = segment(t);
          // References repeat across methods; keep the cache bounded all the same.
          if (segCache.size < 100_000) segCache.set(t, s);
        }
        return s;
      };
      const out: string[] = [];
      for (const p of parsed) {
        if (!p) continue;
        const bleu = memPalBleuTokens(p.references.map(seg), seg(p.candidate));
        out.push(JSON.stringify({ ...p.obj, bleu }));
      }
      writeOutput(opts.out, out.length ? `${out.join("\n")}\n` : "");
    });

  metrics
    .command("agreement")
    .description("inter-rater agreement: percent agreement, Fleiss' kappa, Krippendorff's alpha, Cohen's kappa per rater pair")
    .option("--in <file>", 'JSON {"scale", "categories", "items": [{"id", "ratings": {"<rater>": label}}]} (- for stdin)')
    .option("--campaign <id>", "a campaign's labels instead of a file: the report its dashboard shows, per dimension")
    .option("--dimension <key>", "with --campaign: only this dimension")
    .option("--out <file>", "write the JSON report here instead of stdout")
    .option("--bootstrap <n>", "add percentile bootstrap 95% intervals over items with n resamples")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("--majority <rule>", `add majority-vote labels; tie rule: ${TIE_RULES.join(", ")}`)
    .option("--json", "the JSON report of docs/cli.md on one line (default: a readable table; --out always writes JSON)")
    .addHelpText(
      "after",
      `
scale is nominal, ordinal (categories in order) or interval; a rating may be null or absent (missing).
Weighted kappas are null for nominal scales; Fleiss' kappa is null unless every item has the same
number of ratings; a null value comes with its reason under "reasons".

Example:
  $ cat ratings.json
  {"scale":"ordinal","categories":[1,2,3],
   "items":[{"id":"s1","ratings":{"ann":3,"bob":3}},{"id":"s2","ratings":{"ann":2,"bob":3}},
            {"id":"s3","ratings":{"ann":1,"bob":1}},{"id":"s4","ratings":{"ann":3,"bob":2}}]}
  $ pal metrics agreement --in ratings.json --json
  {"percentAgreement":0.5,"fleissKappa":0.2,"krippendorffAlpha":0.5625,"cohen":[{"raters":["ann","bob"],"n":4,
   "kappa":0.2,"linearWeightedKappa":0.4285714285714286,"quadraticWeightedKappa":0.6363636363636364}],...}

--bootstrap 1000 adds 95% percentile intervals over items (seeded by --seed); --majority tie adds
majority-vote labels per item, a split vote becoming "Tie" (or: first, adjudicate, none).`,
    )
    .action(
      async (opts: {
        in?: string;
        campaign?: string;
        dimension?: string;
        out?: string;
        bootstrap?: string;
        seed: string;
        majority?: string;
        json?: boolean;
      }) => {
        if (opts.campaign !== undefined) {
          if (opts.in !== undefined) throw new CliError("give --in or --campaign, not both");
          const { campaignAgreement } = await import("@/lib/annotation/agreement");
          const { getDb } = await import("@/db/client");
          const id = Number(opts.campaign);
          if (!Number.isInteger(id) || id < 1) throw new CliError(`--campaign: expected a campaign id, got "${opts.campaign}"`);
          const iterations = opts.bootstrap === undefined ? undefined : Number(opts.bootstrap);
          if (iterations !== undefined && (!Number.isInteger(iterations) || iterations < 1))
            throw new CliError(`--bootstrap: expected a positive integer, got "${opts.bootstrap}"`);
          const report = campaignAgreement(getDb(), id, { dimension: opts.dimension, bootstrap: iterations, seed: Number(opts.seed) });
          if (opts.json || opts.out !== undefined)
            return writeOutput(opts.out, `${JSON.stringify(report, null, opts.json ? undefined : 2)}\n`);
          // Raw JSON is not the default view of anything a person reads: one table per dimension, then the warnings.
          const { agreementReportText, warningsText } = await import("@/lib/agreement/report-text");
          const text = report.dimensions
            .map((d) => agreementReportText(d.report, `${d.dimension.title} (${d.dimension.key})`))
            .join("\n\n");
          return writeOutput(undefined, `${text || "no dimension has labels yet"}${warningsText(report.warnings)}\n`);
        }
        if (opts.in === undefined) throw new CliError("give --in <file> or --campaign <id>");
        const { agreementReport, parseAgreementInput } = await import("@/lib/agreement");
        const where = opts.in === "-" ? "stdin" : opts.in;
        const text = readInput(opts.in);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (e) {
          throw new CliError(`${where}: not valid JSON (${(e as Error).message})`);
        }
        let iterations: number | undefined;
        if (opts.bootstrap !== undefined) {
          iterations = Number(opts.bootstrap);
          if (!Number.isInteger(iterations) || iterations < 1)
            throw new CliError(`--bootstrap: expected a positive integer, got "${opts.bootstrap}"`);
        }
        const seed = Number(opts.seed);
        if (!Number.isInteger(seed)) throw new CliError(`--seed: expected an integer, got "${opts.seed}"`);
        if (opts.majority !== undefined && !TIE_RULES.includes(opts.majority as TieRule)) {
          throw new CliError(`--majority: expected one of ${TIE_RULES.join(", ")}, got "${opts.majority}"`);
        }
        const input = parseAgreementInput(json, where);
        const report = agreementReport(input, {
          bootstrap: iterations ? { iterations, seed } : undefined,
          majority: opts.majority ? { tieRule: opts.majority as TieRule } : undefined,
        });
        if (opts.json || opts.out !== undefined)
          return writeOutput(opts.out, `${JSON.stringify(report, null, opts.json ? undefined : 2)}\n`);
        const { agreementReportText } = await import("@/lib/agreement/report-text");
        writeOutput(undefined, `${agreementReportText(report, where)}\n\n(--json for the JSON report)\n`);
      },
    );
}
