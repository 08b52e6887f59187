import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId, readListState, type SearchParams } from "@/lib/datasets/browse/params";
import { fmtMinute, qaHref } from "@/lib/datasets/browse/format";
import { PAL_USER_SORTS, listPalUsers } from "@/lib/datasets/palset/queries";
import { HC_USER_SORTS, listHcUsers } from "@/lib/datasets/hicupid/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { QualityReport } from "@/components/datasets/QualityReport";
import { PalUsersTable } from "@/components/datasets/PalUsersTable";
import { HcUsersTable } from "@/components/datasets/HcUsersTable";

export const metadata: Metadata = { title: "Data set" };

const COUNT_LABELS: Record<string, Array<[string, string]>> = {
  palset: [["users", "Users"], ["samples", "Sessions"], ["logs", "Logs"], ["turns", "Turns"], ["topics", "Topics"], ["candidateSolutions", "Candidates"]],
  hicupid: [["users", "Users"], ["dialogues", "Dialogues"], ["turns", "Turns"], ["qa", "QA items"]],
};

export default async function DatasetPage({ params, searchParams }: { params: Promise<{ datasetId: string }>; searchParams: Promise<SearchParams> }) {
  await requireRole("admin", "researcher");
  const id = parseId((await params).datasetId);
  const db = getDb();
  const ds = id == null ? null : getDataset(db, id);
  if (!ds) notFound();
  const sp = await searchParams;
  const stats = (ds.stats ?? {}) as Record<string, number>;
  const labels = COUNT_LABELS[ds.kind] ?? Object.keys(stats).map((k) => [k, k] as [string, string]);

  let table: React.ReactNode;
  if (ds.kind === "palset") {
    const st = readListState(sp, PAL_USER_SORTS, { sort: "userKey" });
    const { rows, total } = listPalUsers(db, ds.id, st);
    table = <PalUsersTable datasetId={ds.id} rows={rows} state={{ ...st, total }} />;
  } else {
    const st = readListState(sp, HC_USER_SORTS, { sort: "userKey" });
    const { rows, total } = listHcUsers(db, ds.id, st);
    table = <HcUsersTable datasetId={ds.id} rows={rows} state={{ ...st, total }} />;
  }

  return (
    <>
      <Breadcrumbs items={[{ href: "/datasets", label: "Datasets" }, { label: ds.name }]} />
      <PageHeader
        title={ds.name}
        subtitle={
          <>
            {ds.kind === "palset" ? "PAL-Set" : "HiCUPID"}
            {ds.language ? ` · ${ds.language}` : ""} · imported {fmtMinute(ds.createdAt)}
            {ds.source ? <span className="block max-w-3xl truncate text-xs text-slate-400" title={ds.source}>from {ds.source}</span> : null}
          </>
        }
        actions={
          <div className="flex gap-2">
            {ds.kind === "palset" ? (
              <a
                href={`/api/datasets/${ds.id}/export`}
                download
                className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
              >
                Download JSON
              </a>
            ) : (
              <Link href={qaHref(ds.id)} className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
                Browse QA
              </Link>
            )}
          </div>
        }
      />
      <div className="space-y-6">
        <CountGrid testId="dataset-counts" counts={labels.map(([k, label]) => ({ label, value: stats[k] }))} />
        <section aria-labelledby="users-title">
          <h2 id="users-title" className="mb-2 text-sm font-semibold text-slate-800">Users</h2>
          {table}
        </section>
        <QualityReport report={ds.report} />
      </div>
    </>
  );
}
