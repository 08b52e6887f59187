import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId, type SearchParams } from "@/lib/datasets/browse/params";
import { fmtMinute, qaHref } from "@/lib/datasets/browse/format";
import { datasetKind } from "@/lib/datasets/kinds";
import { kindViews } from "../_kinds";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { QualityReport } from "@/components/datasets/QualityReport";

export const metadata: Metadata = { title: "Data set" };

export default async function DatasetPage({
  params,
  searchParams,
}: {
  params: Promise<{ datasetId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  await requireRole("admin", "researcher");
  const id = parseId((await params).datasetId);
  const db = getDb();
  const ds = id == null ? null : getDataset(db, id);
  if (!ds) notFound();
  const sp = await searchParams;
  const stats = (ds.stats ?? {}) as Record<string, number>;
  const kind = datasetKind(ds.kind);
  const views = kindViews(ds.kind);
  const table = views.usersTable(db, ds, sp);

  return (
    <>
      <Breadcrumbs items={[{ href: "/datasets", label: "Datasets" }, { label: ds.name }]} />
      <PageHeader
        title={ds.name}
        subtitle={
          <>
            {kind.label}
            {ds.language ? ` · ${ds.language}` : ""} · imported {fmtMinute(ds.createdAt)}
            {ds.source ? (
              <span className="block max-w-3xl truncate text-xs text-slate-500" title={ds.source}>
                from {ds.source}
              </span>
            ) : null}
          </>
        }
        actions={
          <div className="flex gap-2">
            {kind.browse.exportJson ? (
              <a
                href={`/api/datasets/${ds.id}/export`}
                download
                className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
              >
                Download JSON
              </a>
            ) : null}
            {kind.browse.qa ? (
              <Link href={qaHref(ds.id)} className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
                Browse QA
              </Link>
            ) : null}
          </div>
        }
      />
      <div className="space-y-6">
        <CountGrid testId="dataset-counts" counts={kind.counts.map(([k, label]) => ({ label, value: stats[k] }))} />
        <section aria-labelledby="users-title">
          <h2 id="users-title" className="mb-2 text-sm font-semibold text-slate-800">
            {views.usersHeading ?? "Users"}
          </h2>
          {table}
        </section>
        <QualityReport report={ds.report} />
      </div>
    </>
  );
}
