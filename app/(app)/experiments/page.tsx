import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listExperiments } from "@/lib/experiments/results";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";
import { NewExperimentForm } from "@/components/experiments/NewExperimentForm";
import { ImportBundleForm } from "@/components/experiments/ImportBundleForm";
import { RunStatusBadge } from "@/components/shell/RunStatusBadge";
import { listDatasets } from "@/lib/datasets/palset/queries";
import { kindLabel } from "@/lib/datasets/kinds";
import { TASKS } from "@/lib/tasks/registry";
import { methodChoices, methodDisplayName } from "@/lib/experiments/method-choices";
import { presetOptions } from "@/lib/experiments/presets";
import { judgeEndpointsBatchApi } from "@/lib/experiments/judge-batch";

export const metadata: Metadata = { title: "Experiments" };

export default async function ExperimentsPage() {
  await requireRole("admin", "researcher");
  const db = getDb();
  const rows = listExperiments(db);
  // Oldest first, as the form has always offered them (its first option is the default).
  const dsList = listDatasets(db)
    .map(({ id, name, kind }) => ({ id, name, kind, kindLabel: kindLabel(kind) }))
    .sort((a, b) => a.id - b.id);
  const tasks = TASKS.map((t) => ({ name: t.name, label: t.label, datasetKind: t.datasetKind }));
  return (
    <>
      <PageHeader
        title="Experiments"
        subtitle="Assistants × PAL-Bench and HiCUPID tasks, run as resumable jobs (here or with pal run)."
        actions={
          <Link
            className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-50"
            href="/experiments/tables"
            data-testid="across-link"
          >
            Table across experiments
          </Link>
        }
      />
      {dsList.length ? (
        <NewExperimentForm
          datasets={dsList}
          tasks={tasks}
          methods={methodChoices(db)}
          presets={presetOptions(methodDisplayName)}
          judgeBatchApi={judgeEndpointsBatchApi(db)}
        />
      ) : null}
      <ImportBundleForm />
      {rows.length === 0 ? (
        <EmptyState title="No experiments yet">
          Estimate the paper&apos;s protocol on a data set with <code>npx pal run --dataset NAME --dry-run</code>.
        </EmptyState>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="experiment-list">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="p-2">#</th>
              <th className="p-2">Name</th>
              <th className="p-2">Data set</th>
              <th className="p-2">Status</th>
              <th className="p-2">Progress</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-100">
                <td className="p-2">{r.id}</td>
                <td className="p-2">
                  <Link className="text-indigo-700 hover:underline" href={`/experiments/${r.id}`}>
                    {r.name}
                  </Link>
                </td>
                <td className="p-2">{r.datasetName}</td>
                <td className="p-2">
                  <RunStatusBadge status={r.status} failed={r.failed} />
                </td>
                <td className="p-2">
                  {r.finished}/{r.total}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
