import type { ReactNode } from "react";
import type { PaperTable } from "@/lib/experiments/paper-table/types";
import type { PairRow } from "@/lib/experiments/paper-table/wtl";
import { PaperTableView } from "./PaperTableView";
import { WinTieLoseRuns } from "./WinTieLoseRuns";

type Download = (format: "latex" | "markdown" | "csv", label: string, table?: string, runOnly?: boolean) => ReactNode;
const FORMATS = [
  ["latex", "LaTeX"],
  ["markdown", "Markdown"],
  ["csv", "CSV"],
] as const;

export function TieMarginNote({
  tieMargin,
  testId = "applied-tie-margin",
}: {
  tieMargin: { margin: number; source: string | null } | null;
  testId?: string;
}) {
  if (!tieMargin) return null;
  return (
    <p className="mb-1 text-xs text-slate-600" data-testid={testId}>
      Read at tie margin <b>{tieMargin.margin}</b> (re-derived from the stored mean scores)
      {tieMargin.source ? `, calibrated on ${tieMargin.source}` : ""}.
    </p>
  );
}

/** The "Paper table" view: every paper table of the experiment with its downloads, Table 3's runs on demand. */
export function PaperTables({
  tables,
  pairs,
  tieMargin,
  download,
}: {
  tables: PaperTable[];
  pairs: PairRow[];
  tieMargin: { margin: number; source: string | null } | null;
  download: Download;
}) {
  if (!tables.length)
    return (
      <p className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-600" data-testid="paper-table-empty">
        No paper table yet: the tables fill in as items finish.
      </p>
    );
  return (
    <div data-testid="paper-tables">
      <p className="mb-3 flex items-center gap-2 text-xs text-slate-600">
        The papers&apos; tables from this run, beside the published rows. Download all:
        {FORMATS.map(([f, label]) => download(f, label))}
        {download("latex", "LaTeX, this run only", undefined, true)}
        <span className="text-slate-500">(or `pal table ID --format latex|markdown|csv`)</span>
      </p>
      {tables.map((t) => (
        <div key={t.id}>
          <PaperTableView table={t} downloads={(id) => FORMATS.map(([f, label]) => download(f, label, id))} />
          {t.id === "mem-pal-table3" ? (
            <details className="-mt-4 mb-6 text-sm" data-testid="wtl-per-run">
              <summary className="cursor-pointer text-xs text-indigo-700">Each run&apos;s Win / Tie / Lose</summary>
              <TieMarginNote tieMargin={tieMargin} testId="paper-tie-margin" />
              <WinTieLoseRuns pairs={pairs} testId="wtl-runs" />
            </details>
          ) : null}
        </div>
      ))}
    </div>
  );
}
