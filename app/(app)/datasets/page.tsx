import type { Metadata } from "next";
import { desc } from "drizzle-orm";
import { getDb } from "@/db/client";
import { datasets } from "@/db/schema";
import { requireRole } from "@/lib/auth/session";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  await requireRole("admin", "researcher");
  const rows = getDb().select().from(datasets).orderBy(desc(datasets.createdAt)).all();
  return (
    <>
      <PageHeader title="Datasets" />
      {rows.length === 0 ? <EmptyState title="No data sets yet" /> : (
        <ul data-testid="dataset-list" className="divide-y rounded border bg-white">
          {rows.map((d) => <li key={d.id} className="px-3 py-2">{d.name} <span className="text-slate-500">{d.kind} {d.language}</span></li>)}
        </ul>
      )}
    </>
  );
}
