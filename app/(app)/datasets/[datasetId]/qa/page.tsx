import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { one, parseId, type SearchParams } from "@/lib/datasets/browse/params";
import { datasetHref, qaHref } from "@/lib/datasets/browse/format";
import { hcQaFacets, listHcQa } from "@/lib/datasets/hicupid/queries";
import { DATASET_KIND_LIST } from "@/lib/datasets/kinds";
import { pageWindow } from "@/lib/paging";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { QaFilters } from "@/components/datasets/QaFilters";
import { QaItem } from "@/components/datasets/QaItem";
import { Pager } from "@/components/datasets/Pager";

export const metadata: Metadata = { title: "QA browser" };

const PAGE_SIZE = 20;

export default async function QaPage({
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
  if (!ds || !DATASET_KIND_LIST.some((k) => k.id === ds.kind && k.browse.qa)) notFound();
  const sp = await searchParams;

  const facets = hcQaFacets(db, ds.id);
  const tally = (key: "type" | "split") => {
    const m = new Map<string, number>();
    for (const f of facets) m.set(f[key], (m.get(f[key]) ?? 0) + f.count);
    return [...m.entries()].map(([value, count]) => ({ value, count }));
  };
  const types = tally("type");
  const splits = tally("split");
  // Only values the data set has reach SQL; anything else means "all".
  const type = types.some((t) => t.value === one(sp, "type")) ? one(sp, "type")! : "";
  const split = splits.some((s) => s.value === one(sp, "split")) ? one(sp, "split")! : "";
  const user = (one(sp, "user") ?? "").trim().slice(0, 100);
  const { page } = pageWindow(Number(one(sp, "page")), PAGE_SIZE);

  const { rows, total } = listHcQa(db, ds.id, {
    type: type || undefined,
    split: split || undefined,
    userKey: user || undefined,
    page,
    pageSize: PAGE_SIZE,
  });
  const filters = { type, split, user };

  return (
    <>
      <Breadcrumbs items={[{ href: "/datasets", label: "Datasets" }, { href: datasetHref(ds.id), label: ds.name }, { label: "QA" }]} />
      <PageHeader
        title="QA browser"
        subtitle={`${ds.name} · questions with personalized and general answers, their judge metadata and relevant dialogues`}
      />
      <div className="space-y-4">
        <QaFilters action={`/datasets/${ds.id}/qa`} types={types} splits={splits} value={filters} />
        <Pager page={page} pageSize={PAGE_SIZE} total={total} href={(p) => qaHref(ds.id, { ...filters, page: p > 1 ? p : undefined })} />
        <div className="space-y-3" data-testid="qa-list">
          {rows.map((qa) => (
            <QaItem key={qa.id} datasetId={ds.id} qa={qa} />
          ))}
          {rows.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-500">
              No QA item matches these filters.
            </p>
          ) : null}
        </div>
        {total > PAGE_SIZE ? (
          <Pager page={page} pageSize={PAGE_SIZE} total={total} href={(p) => qaHref(ds.id, { ...filters, page: p > 1 ? p : undefined })} />
        ) : null}
      </div>
    </>
  );
}
