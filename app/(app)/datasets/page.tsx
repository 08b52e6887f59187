import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listDatasets } from "@/lib/datasets/palset/queries";
import { DATASET_KIND_LIST } from "@/lib/datasets/kinds";
import { datasetHref, fmtCount, fmtMinute } from "@/lib/datasets/browse/format";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  await requireRole("admin", "researcher");
  const rows = listDatasets(getDb());
  return (
    <>
      <PageHeader
        title="Datasets"
        subtitle={`Imported ${DATASET_KIND_LIST.map((k) => k.label).join(" and ")} data sets. Open one to browse its users, sessions and quality report.`}
        actions={
          <Link href="/datasets/import" className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
            Import
          </Link>
        }
      />
      {rows.length === 0 ? (
        <EmptyState title="No data sets yet">
          <Link href="/datasets/import" className="text-indigo-700 hover:underline">
            Import a PAL-Set or HiCUPID copy
          </Link>{" "}
          or run <code>npx pal demo</code>.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm" data-testid="dataset-list">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Name
                </th>
                <th scope="col" className="px-3 py-2">
                  Kind
                </th>
                <th scope="col" className="px-3 py-2">
                  Language
                </th>
                <th scope="col" className="px-3 py-2">
                  Contents
                </th>
                <th scope="col" className="px-3 py-2">
                  Imported
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((d) => {
                const stats = (d.stats ?? {}) as Record<string, number>;
                const kind = DATASET_KIND_LIST.find((k) => k.id === d.kind);
                return (
                  <tr key={d.id} data-dataset={d.name} className="hover:bg-slate-50">
                    <td className="px-3 py-2">
                      <Link href={datasetHref(d.id)} className="font-medium text-indigo-700 hover:underline">
                        {d.name}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${kind?.badgeClass ?? "bg-slate-100 text-slate-700"}`}>
                        {kind?.label ?? d.kind}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-slate-600">{d.language ?? "–"}</td>
                    <td className="px-3 py-2 text-xs text-slate-600">
                      {(kind?.summary ?? [])
                        .filter(([k]) => k in stats)
                        .map(([k, label]) => (
                          <span key={k} className="mr-3 whitespace-nowrap">
                            <span className="tabular-nums font-medium text-slate-800">{fmtCount(stats[k])}</span> {label}
                          </span>
                        ))}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-500">{fmtMinute(d.createdAt)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
