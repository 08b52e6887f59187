import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { experimentResults } from "@/lib/experiments/results";
import { experimentProgress } from "@/lib/experiments/progress";
import { getExperimentRow } from "@/lib/experiments/control";
import { listItemRows } from "@/lib/experiments/items";
import { PageHeader } from "@/components/shell/PageHeader";
import { ExperimentControls } from "@/components/experiments/ExperimentControls";
import { ResultsTable } from "@/components/experiments/ResultsTable";
import { ResultsTabs } from "@/components/experiments/results/ResultsTabs";
import { PaperTables, TieMarginNote } from "@/components/experiments/results/PaperTables";
import { WinTieLoseRuns } from "@/components/experiments/results/WinTieLoseRuns";
import { CostTable } from "@/components/experiments/results/CostTable";
import { experimentPaperTables } from "@/lib/experiments/paper-table";
import { getTask } from "@/lib/tasks/registry";
import { ItemsTable } from "@/components/experiments/ItemsTable";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { PRESETS } from "@/lib/experiments/presets";
import { modelsInWords, presetChanges } from "@/lib/experiments/preset-changes";
import { keyDisplayName, methodNames } from "@/lib/experiments/method-choices";
import { metricColumns } from "@/lib/experiments/results-columns";
import { readRunRecord } from "@/lib/experiments/run-record";
import { RunRecordSummary } from "@/components/experiments/RunRecordSummary";
import { importOf } from "@/lib/bundles/imported";
import { exportTaskOf, verifyTaskOf } from "@/lib/bundles/web";
import { BundleDownload } from "@/components/experiments/BundleDownload";
import { VerifyRun } from "@/components/experiments/VerifyRun";

export const metadata: Metadata = { title: "Experiment" };

export default async function ExperimentPage({ params }: { params: Promise<{ experimentId: string }> }) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const db = getDb();
  const e = orNotFound(() => getExperimentRow(db, id));
  const res = experimentResults(db, id);
  const prog = experimentProgress(db, id);
  const items = listItemRows(db, id);
  const paper = experimentPaperTables(db, id, {}, res);
  const tasks = [...new Set(res.summary.map((s) => s.task))];
  const config = e.config as { models?: Record<string, unknown>; retriever?: string; repeats?: number; seed?: number };
  const parsed = parseExperimentConfig(e.config);
  const changes = presetChanges(parsed);
  // Methods by their display names in every table; a pair "a~b" reads "A vs B".
  const names = methodNames(parsed.methods);
  const imported = importOf(db, id);
  const day = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ");
  const nameOf = (key: string) => keyDisplayName(key, names);
  // Rows in the experiment's order, as the paper lists its methods (not A-Z).
  const order = Object.keys(names);
  const byConfigOrder = (a: string, b: string) =>
    (order.includes(a) ? order.indexOf(a) : order.length) - (order.includes(b) ? order.indexOf(b) : order.length) || a.localeCompare(b);
  const exportLink = (format: string, label: string) => (
    <a
      className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
      href={`/api/experiments/${id}/export?format=${format}`}
    >
      {label}
    </a>
  );
  return (
    <>
      <PageHeader
        title={e.name}
        subtitle={`Experiment ${id} · reference ${nameOf(res.reference)}${e.error ? ` · ${e.error}` : ""}`}
        actions={
          <div className="flex gap-2">
            {exportLink("csv", "CSV")}
            {exportLink("json", "JSON")}
            <BundleDownload id={id} initial={{ plain: exportTaskOf(id, false), withData: exportTaskOf(id, true) }} />
            {/* Opens as a page (inline), in a tab of its own. */}
            <a
              className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
              href={`/api/experiments/${id}/export?format=card-html&inline=1`}
              target="_blank"
              rel="noopener"
            >
              Run card
            </a>
            <Link className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50" href={`/experiments/${id}/case-studies`}>
              Case studies
            </Link>
          </div>
        }
      />
      <ExperimentControls id={id} initial={prog} />
      <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-xs text-slate-600" data-testid="settings">
        {imported ? (
          <div className="mb-1 rounded bg-amber-50 px-2 py-1 text-amber-900" data-testid="imported">
            Imported from <b>{imported.source}</b> (experiment {imported.sourceExperimentId} there, exported {day(imported.exportedAt)} UTC
            by version {imported.exportedVersion}) on {day(imported.importedAt)} UTC
            {imported.datasetFromBundle ? "; its data set's rows came with the bundle" : ""}.
            {imported.sourceStatus ? (
              <span data-testid="imported-status">
                {" "}
                In the bundle it was <b>{imported.sourceStatus}</b>
                {["done", "failed", "cancelled", "paused"].includes(imported.sourceStatus)
                  ? "."
                  : "; it arrived paused: an imported run never starts by itself, and resuming it is held to the launch limits."}
              </span>
            ) : null}
            <VerifyRun id={id} initial={verifyTaskOf(db, id)} />
          </div>
        ) : null}
        <p className="mb-1" data-testid="preset">
          Protocol: <b>{parsed.preset ? PRESETS[parsed.preset].label : "custom (no preset)"}</b>
          {parsed.preset ? ` · ${changes.length ? `${changes.length} change${changes.length > 1 ? "s" : ""}` : "no changes"}` : ""} ·{" "}
          <Link className="text-indigo-700 hover:underline" href="/experiments/protocol">
            protocol notes
          </Link>
        </p>
        {changes.length ? (
          <ul className="mb-2 list-disc pl-5" data-testid="preset-changes">
            {changes.map((c) => (
              <li key={c.setting}>
                <b>{c.setting}</b>: {c.value} <span className="text-slate-500">(preset: {c.preset})</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p>
          Retriever: <b>{config.retriever ?? "bm25"}</b> · repeats: <b>{config.repeats ?? 1}</b> · seed: <b>{config.seed ?? 0}</b>
          {Object.keys(config.models ?? {}).length ? (
            <>
              {" "}
              · models declared: <b>{modelsInWords(config.models)}</b>
            </>
          ) : null}
        </p>
        <RunRecordSummary record={readRunRecord(db, id)} />
        <details className="mt-1">
          <summary>Full config</summary>
          <pre className="overflow-x-auto">{JSON.stringify(e.config, null, 1)}</pre>
        </details>
      </section>
      <ResultsTabs
        tabs={[
          {
            id: "paper",
            label: "Paper table",
            content: (
              <PaperTables
                tables={paper.tables}
                pairs={res.pairwise}
                tieMargin={res.pairwiseTieMargin}
                download={(format, label, table, runOnly) => (
                  <a
                    key={`${format}${runOnly ? "-run" : ""}`}
                    className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
                    href={`/api/experiments/${id}/paper-table?format=${format}${table ? `&table=${table}` : ""}${runOnly ? "&rows=run" : ""}`}
                    data-testid={`download-${format}${table ? `-${table}` : ""}${runOnly ? "-run-only" : ""}`}
                  >
                    {label}
                  </a>
                )}
              />
            ),
          },
          {
            id: "metrics",
            label: "All metrics",
            content: (
              <>
                {tasks.map((task) => {
                  const rows = res.summary.filter((s) => s.task === task).sort((a, b) => byConfigOrder(a.method, b.method));
                  if (!metricColumns(rows).length) return null;
                  return (
                    <ResultsTable
                      key={task}
                      task={task}
                      title={getTask(task).label}
                      reference={nameOf(res.reference)}
                      names={names}
                      rows={rows}
                    />
                  );
                })}
                {res.pairwise.length > 0 && (
                  <section className="mb-4">
                    <h2 className="mb-1 font-semibold">{getTask("dialogue").label}: Win / Tie / Lose</h2>
                    <TieMarginNote tieMargin={res.pairwiseTieMargin} />
                    <WinTieLoseRuns pairs={res.pairwise} />
                  </section>
                )}
              </>
            ),
          },
          {
            id: "costs",
            label: "Costs",
            content: (
              <CostTable
                byMethod={res.ledgerByMethod}
                memoryByMethod={res.memoryBuildByMethod}
                total={res.ledger}
                memoryTotal={res.memoryBuild}
                names={Object.fromEntries(
                  [...Object.keys(res.ledgerByMethod), ...Object.keys(res.memoryBuildByMethod)].map((k) => [k, nameOf(k)]),
                )}
                order={order}
              />
            ),
          },
        ]}
      />
      <ItemsTable experimentId={id} initial={items} names={names} />
    </>
  );
}
