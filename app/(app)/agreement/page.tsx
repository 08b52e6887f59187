import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { campaignAgreement, humanVsJudge, kindDef, listCampaigns, ratingVsJudge } from "@/lib/annotation";
import { judgeRunsOf } from "@/lib/annotation/human-labels";
import { landisKoch } from "@/lib/agreement/interpret";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";
import { StatValue } from "@/components/annotation/AgreementView";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

/** The PI's overview: every campaign's progress and agreement per dimension as labels arrive. */
export default async function AgreementPage() {
  await requireRole("admin", "researcher");
  const db = getDb();
  const rows = listCampaigns(db).map((c) => ({ c, a: campaignAgreement(db, c.id, { bootstrap: 200 }), judges: judgesOf(c.id, c.kind) }));
  /** Per dimension, each judge run's agreement with the humans: Table 11's kappas for pairwise kinds, Cohen's for ratings. */
  function judgesOf(campaignId: number, kind: string) {
    const out: Record<
      string,
      Array<{
        run: string;
        fleiss?: { value: number | null; reason?: string };
        cohen: { value: number | null; reason?: string };
        n: number;
      }>
    > = {};
    for (const run of judgeRunsOf(db, campaignId)) {
      if (kindDef(kind).pairwise) {
        for (const d of humanVsJudge(db, campaignId, run.id).dimensions)
          (out[d.dimension] ??= []).push({ run: run.name, fleiss: d.result.fleissKappa, cohen: d.result.cohenKappa, n: d.result.n });
      } else {
        for (const d of ratingVsJudge(db, campaignId, run.id).dimensions)
          (out[d.dimension] ??= []).push({ run: run.name, cohen: { value: d.kappa.plain.value, reason: d.kappa.plain.reason }, n: d.n });
      }
    }
    return out;
  }
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
              <th className="p-2">Judge vs humans (κ; pairwise: Fleiss · Cohen, ties dropped)</th>
            </tr>
          </thead>
          <tbody>
            {rows.flatMap(({ c, a, judges }) =>
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
                    <StatValue value={d.report.fleissKappa} reason={d.report.reasons.fleissKappa} />{" "}
                    <span className="text-xs text-slate-500">{landisKoch(d.report.fleissKappa)}</span>
                  </td>
                  <td className="p-2 tabular-nums">
                    <StatValue value={d.report.krippendorffAlpha} reason={d.report.reasons.krippendorffAlpha} />{" "}
                    <span className="text-xs text-slate-500">{landisKoch(d.report.krippendorffAlpha)}</span>
                  </td>
                  <td className="p-2 tabular-nums">
                    <StatValue
                      value={d.mean}
                      reason={d.dimension.scale === "ordinal" ? "no ratings yet" : "not a rating scale"}
                      digits={2}
                    />
                  </td>
                  <td className="p-2 text-xs tabular-nums" data-testid={`agreement-judges-${c.id}-${d.dimension.key}`}>
                    {(judges[d.dimension.key] ?? []).length === 0 ? (
                      <span className="text-slate-400">no judge run</span>
                    ) : (
                      (judges[d.dimension.key] ?? []).map((j) => (
                        <div key={j.run}>
                          <span className="text-slate-600">{j.run}</span> (n = {j.n}):{" "}
                          {j.fleiss ? (
                            <>
                              <StatValue value={j.fleiss.value} reason={j.fleiss.reason} /> ·{" "}
                            </>
                          ) : null}
                          <StatValue value={j.cohen.value} reason={j.cohen.reason} />
                        </div>
                      ))
                    )}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </>
  );
}
