import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { campaignAgreement, kindDef, listCampaigns } from "@/lib/annotation";
import { landisKoch } from "@/lib/agreement/interpret";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";
import { fmt } from "@/components/annotation/AgreementView";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

/** The PI's overview: every campaign's progress and agreement per dimension as labels arrive. */
export default async function AgreementPage() {
  await requireRole("admin", "researcher");
  const db = getDb();
  const rows = listCampaigns(db).map((c) => ({ c, a: campaignAgreement(db, c.id, { bootstrap: 200 }) }));
  return (
    <>
      <PageHeader title="Agreement" subtitle="Inter-annotator agreement and human vs judge comparison per campaign." />
      {rows.length === 0 ? (
        <EmptyState title="No campaigns yet">
          Create one under{" "}
          <Link className="text-indigo-700" href="/campaigns">
            Campaigns
          </Link>
          . A ratings file works too: <code>pal metrics agreement --in ratings.json</code>.
        </EmptyState>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th className="p-2">Campaign</th>
              <th className="p-2">Progress</th>
              <th className="p-2">Dimension</th>
              <th className="p-2">Fleiss κ</th>
              <th className="p-2">Krippendorff α</th>
              <th className="p-2">Mean</th>
            </tr>
          </thead>
          <tbody>
            {rows.flatMap(({ c, a }) =>
              a.dimensions.map((d, i) => (
                <tr key={`${c.id}-${d.dimension.key}`} className="border-t border-slate-100">
                  <td className="p-2">
                    {i === 0 ? (
                      <>
                        <Link className="text-indigo-700 hover:underline" href={`/campaigns/${c.id}`}>
                          {c.name}
                        </Link>{" "}
                        <span className="text-xs text-slate-400">{kindDef(c.kind).label}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="p-2 tabular-nums">{i === 0 ? `${c.done} / ${c.assignments}` : null}</td>
                  <td className="p-2">{d.dimension.title}</td>
                  <td className="p-2 tabular-nums">
                    {fmt(d.report.fleissKappa)} <span className="text-xs text-slate-500">{landisKoch(d.report.fleissKappa)}</span>
                  </td>
                  <td className="p-2 tabular-nums">
                    {fmt(d.report.krippendorffAlpha)}{" "}
                    <span className="text-xs text-slate-500">{landisKoch(d.report.krippendorffAlpha)}</span>
                  </td>
                  <td className="p-2 tabular-nums">{fmt(d.mean, 2)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </>
  );
}
