import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { CAMPAIGN_KINDS } from "@/db/schema";
import { kindDef } from "@/lib/annotation";
import { agreementDashboard, dashboardFilters } from "@/lib/annotation/agreement-dashboard";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";
import { DashboardFilters } from "@/components/annotation/dashboard/DashboardFilters";
import { CampaignAgreementCard } from "@/components/annotation/dashboard/CampaignAgreementCard";
import { ForestPlot } from "@/components/annotation/dashboard/ForestPlot";
import { AnnotatorsAcross } from "@/components/annotation/dashboard/AnnotatorsAcross";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

/**
 * The PI's dashboard: every campaign's agreement per dimension with intervals, its judges against the
 * humans, progress and warnings, and a forest plot of the kappas; all from the cached reports with their
 * age (lib/annotation/agreement-cache.ts), never computed here.
 */
export default async function AgreementPage({ searchParams }: { searchParams: Promise<{ kind?: string; from?: string; to?: string }> }) {
  await requireRole("admin", "researcher");
  const db = getDb();
  const filters = dashboardFilters(await searchParams);
  const { campaigns, forest, annotators } = agreementDashboard(db, filters);
  const kinds = CAMPAIGN_KINDS.map((k) => ({ value: k, label: kindDef(k).label }));
  const filtered = filters.kind !== null || filters.from !== null || filters.to !== null;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Agreement"
        subtitle="Agreement between annotators and of each judge with the humans, per campaign and dimension, with 95% bootstrap intervals."
      />
      <DashboardFilters filters={filters} kinds={kinds} />
      {campaigns.length === 0 ? (
        <EmptyState title={filtered ? "No campaign matches these filters" : "No campaigns yet"}>
          {filtered ? (
            <Link className="text-indigo-700" href="/agreement">
              Show every campaign
            </Link>
          ) : (
            <>
              Create one under{" "}
              <Link className="text-indigo-700" href="/campaigns">
                Campaigns
              </Link>
              . A ratings file works too: <code>pal metrics agreement --in ratings.json</code>.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <section className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Kappas across campaigns</h2>
            <ForestPlot rows={forest} />
          </section>
          {campaigns.map((c) => (
            <CampaignAgreementCard key={c.id} c={c} />
          ))}
          <section className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Annotators across campaigns</h2>
            <AnnotatorsAcross rows={annotators} />
          </section>
        </>
      )}
    </div>
  );
}
