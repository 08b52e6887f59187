import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { kindDef, listCampaigns } from "@/lib/annotation";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Campaigns" };
export const dynamic = "force-dynamic";

export default async function CampaignsPage() {
  await requireRole("admin", "researcher");
  const rows = listCampaigns(getDb());
  return (
    <>
      <PageHeader
        title="Campaigns"
        subtitle="Human evaluation: session quality ratings, blinded pairwise judging, HiCUPID A/B/Tie."
        actions={
          <Link href="/campaigns/new" className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">
            New campaign
          </Link>
        }
      />
      {rows.length === 0 ? (
        <EmptyState title="No campaigns yet">Create one from a PAL-Set data set or an uploaded JSONL file.</EmptyState>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th className="p-2">Name</th>
              <th className="p-2">Kind</th>
              <th className="p-2">Items</th>
              <th className="p-2">Progress</th>
              <th className="p-2">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} className="border-t border-slate-100">
                <td className="p-2">
                  <Link className="text-indigo-700 hover:underline" href={`/campaigns/${c.id}`}>
                    {c.name}
                  </Link>
                </td>
                <td className="p-2">{kindDef(c.kind).label}</td>
                <td className="p-2 tabular-nums">{c.items}</td>
                <td className="p-2 tabular-nums">
                  {c.done} / {c.assignments}
                  {c.skipped ? ` (${c.skipped} skipped)` : ""}
                </td>
                <td className="p-2">{c.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
