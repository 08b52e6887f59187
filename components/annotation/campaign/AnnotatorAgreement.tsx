/**
 * Agreement between annotators, one block per dimension, the annotators, and the items they disagree on
 * most, from the campaign's cached report with its age (lib/annotation/agreement-cache.ts). A fragment:
 * its heading and blocks are spaced by the page like its other sections.
 */
import Link from "next/link";
import type { AgreementSnapshot } from "@/lib/annotation/agreement-cache";
import type { DimensionSpec } from "@/lib/annotation/kinds";
import { DimensionAgreementView, fmt } from "@/components/annotation/AgreementView";
import { AgreementWarnings } from "@/components/annotation/AgreementWarnings";
import { AnnotatorsTable } from "@/components/annotation/AnnotatorsTable";
import { ReportAge } from "@/components/annotation/ReportAge";
import { AgreementByVersion } from "./AgreementByVersion";

export function AnnotatorAgreement({
  campaignId: id,
  snapshot,
  dims,
}: {
  campaignId: number;
  snapshot: AgreementSnapshot;
  dims: DimensionSpec[];
}) {
  const agreement = snapshot.report;
  return (
    <>
      <div className="flex items-baseline gap-3">
        <h2 className="font-semibold">Agreement between annotators</h2>
        <ReportAge ageMs={snapshot.ageMs} current={snapshot.current} error={snapshot.error} />
      </div>
      {!agreement ? (
        <section
          className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600"
          data-testid="agreement-pending"
        >
          The agreement report (kappas with bootstrap intervals, annotators, judges) is computed in the background; this page updates itself
          when it is ready.
        </section>
      ) : (
        <>
          <AgreementWarnings warnings={agreement.warnings ?? []} titles={Object.fromEntries(dims.map((d) => [d.key, d.title]))} />
          {agreement.dimensions.map((d) => (
            <DimensionAgreementView key={d.dimension.key} d={d} />
          ))}
          {/* Split by guideline version once labels were given under more than one (issue 43.5). */}
          {(agreement.byVersion?.length ?? 0) > 1 ? <AgreementByVersion versions={agreement.byVersion!} /> : null}
          <section className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Annotators</h2>
            <AnnotatorsTable annotators={agreement.annotators ?? []} dims={dims} />
          </section>
          <section className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Items with the most disagreement</h2>
            {agreement.mostDisagreement.length === 0 ? (
              <p className="text-sm text-slate-500">None yet.</p>
            ) : (
              <ul className="flex flex-wrap gap-2 text-sm">
                {agreement.mostDisagreement.map((m) => (
                  <li key={m.itemId}>
                    <Link
                      className="rounded bg-rose-50 px-2 py-0.5 text-rose-800 hover:underline"
                      href={`/campaigns/${id}/items/${m.itemId}`}
                      title={m.externalId}
                    >
                      {m.title ?? m.externalId} ({fmt(m.score, 2)})
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
