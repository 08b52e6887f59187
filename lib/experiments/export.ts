/** Results as files: the summary table as CSV (one row per method × task × metric), the full JSON with the run record, the case studies. */
import { runNumber } from "./run-label";
import type { Db } from "@/db/client";
import { csvLine } from "@/lib/csv";
import { InvalidInputError } from "@/lib/errors";
import { experimentResults, type ExperimentResults, type Ledger } from "./results";
import { caseStudiesHtml, caseStudiesMarkdown, type CaseStudyFilter } from "./case-studies";
import { runRecordOf } from "./run-record";

export function resultsCsv(res: ExperimentResults): string {
  const lines = [csvLine(["task", "method", "metric", "runs", "mean", "sd", "p_vs_reference", "reference"])];
  for (const s of res.summary) {
    for (const [metric, x] of Object.entries(s.metrics)) {
      lines.push(csvLine([s.task, s.method, metric, s.runs, x.mean, x.sd, x.p, res.reference]));
    }
  }
  // W/T/L per run: the mean over runs with its sd (p: the sign test, the largest of the runs), then each run's counts.
  for (const p of res.pairwise) {
    for (const k of ["win", "tie", "lose"] as const) {
      lines.push(csvLine(["dialogue", `${p.a} vs ${p.b}`, `${p.dimension}.${k}`, p.runs, p[k], p.sd?.[k] ?? "", p.p, res.reference]));
    }
    for (const r of p.perRun)
      for (const k of ["win", "tie", "lose"] as const)
        lines.push(
          csvLine(["dialogue", `${p.a} vs ${p.b}`, `${p.dimension}.${k}.run${runNumber(r.replicate)}`, 1, r[k], "", r.p, res.reference]),
        );
  }
  // The ledger per method: answering (its jobs) and memory build (the versions it answered from), apart.
  const ledgers: Array<[string, Record<string, Ledger>]> = [
    ["answering", res.ledgerByMethod],
    ["memory-build", res.memoryBuildByMethod],
  ];
  for (const [part, byMethod] of ledgers)
    for (const [method, l] of Object.entries(byMethod))
      for (const [k, v] of Object.entries(l))
        if (v !== undefined && v !== null) lines.push(csvLine(["ledger", method, `${part}.${k}`, "", v, "", "", res.reference]));
  return lines.join("\n") + "\n";
}

/**
 * One export file of an experiment by format: csv (summary), json (full results), md or html (the case
 * studies, narrowed by the case-studies page's filters).
 */
export function exportExperiment(
  db: Db,
  id: number,
  format: string,
  filter: CaseStudyFilter = {},
): { body: string; contentType: string; filename: string } {
  if (format === "csv")
    return { body: resultsCsv(experimentResults(db, id)), contentType: "text/csv; charset=utf-8", filename: `experiment-${id}.csv` };
  if (format === "json") {
    // The results with what the run used (models as served, parameters as sent, data set, preset, version),
    // from the run's record: never today's settings.
    return {
      body: JSON.stringify({ ...experimentResults(db, id), runRecord: runRecordOf(db, id) }, null, 2),
      contentType: "application/json; charset=utf-8",
      filename: `experiment-${id}.json`,
    };
  }
  if (format === "md")
    return {
      body: caseStudiesMarkdown(db, id, filter),
      contentType: "text/markdown; charset=utf-8",
      filename: `experiment-${id}-case-studies.md`,
    };
  if (format === "html")
    return {
      body: caseStudiesHtml(db, id, filter),
      contentType: "text/html; charset=utf-8",
      filename: `experiment-${id}-case-studies.html`,
    };
  throw new InvalidInputError(`format: "${format}" is not one of csv, json, md, html`);
}
