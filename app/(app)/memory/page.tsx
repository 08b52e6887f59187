import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listMemoryVersions } from "@/lib/memory/versions";
import { listDatasets } from "@/lib/datasets/palset/queries";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { listExternalMethods } from "@/lib/assistants/external/store";
import { listMemoryBuilds, sameBuildWork, type MemoryBuild } from "@/lib/assistants/core/build-jobs";
import { EmptyState, PageHeader } from "@/components/shell/PageHeader";
import { BuildMemoryForm } from "@/components/memory/BuildMemoryForm";
import { BuildProgressBar } from "@/components/memory/BuildProgressBar";
import { startBuildAction } from "./actions";

export const metadata: Metadata = { title: "Memory" };

export default async function MemoryPage() {
  await requireRole("admin", "researcher");
  const db = getDb();
  const rows = listMemoryVersions(db);
  const builds = listMemoryBuilds(db, 10);
  const datasets = listDatasets(db).map((d) => ({ id: d.id, name: d.name }));
  // Registered external methods build here too (their entries, when handed back, are inspected like any method's).
  const methods = [
    ...ASSISTANTS.map((a) => ({ id: a.id, label: a.label })),
    ...listExternalMethods(db).map((m) => ({ id: m.name, label: m.label })),
  ];
  return (
    <>
      <PageHeader
        title="Memory"
        subtitle="Built memories per data set, user, method and settings (pal memory build), with the model calls each one cost."
      />
      <BuildMemoryForm datasets={datasets} methods={methods} startBuild={startBuildAction} />
      {builds.length ? (
        <section className="mb-6 space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Memory builds">
          <h2 className="text-sm font-semibold">Recent builds</h2>
          {builds.map((b) => (
            <BuildProgressBar key={`${b.id}-${b.status}`} initial={b} startBuild={startBuildAction} resumedAs={laterBuildOf(b, builds)} />
          ))}
        </section>
      ) : null}
      {rows.length === 0 ? (
        <EmptyState title="No memory has been built yet">
          Choose a data set and a method above and press <b>Build memory</b>; the build shows its progress here.
        </EmptyState>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm" data-testid="memory-table">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Data set</th>
                <th className="px-3 py-2">User</th>
                <th className="px-3 py-2">Method</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2">Sessions</th>
                <th className="px-3 py-2">Entries</th>
                <th className="px-3 py-2">Calls</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((v) => (
                <tr key={v.id}>
                  <td className="px-3 py-2">{v.datasetName}</td>
                  <td className="px-3 py-2 font-mono">{v.userKey}</td>
                  <td className="px-3 py-2">
                    <Link className="text-indigo-600 hover:underline" href={`/memory/${v.id}`}>
                      {v.method}
                    </Link>{" "}
                    <span className="text-xs text-slate-500">{v.settingsKey.slice(0, 8)}</span>
                  </td>
                  <td className="px-3 py-2">{v.status}</td>
                  <td className="px-3 py-2">
                    {v.sessionsDone}/{v.sessionsTotal}
                  </td>
                  <td className="px-3 py-2">{v.entries}</td>
                  <td className="px-3 py-2">{v.calls}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/**
 * The id of a later build of the same data set, method and users, for a build that stopped: it took over
 * (Resume starts exactly such a build), so the stopped one offers no second Resume.
 */
function laterBuildOf(b: MemoryBuild, builds: MemoryBuild[]): number | undefined {
  if (b.status === "running" || b.status === "complete") return undefined;
  return builds.filter((x) => x.id > b.id && sameBuildWork(x, b)).sort((x, y) => x.id - y.id)[0]?.id;
}
