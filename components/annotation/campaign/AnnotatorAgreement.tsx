/**
 * Agreement between annotators, one block per dimension, and the items they disagree on most. A fragment:
 * its heading and blocks are spaced by the page like its other sections.
 */
import Link from "next/link";
import type { CampaignAgreement } from "@/lib/annotation";
import { DimensionAgreementView, fmt } from "@/components/annotation/AgreementView";

export function AnnotatorAgreement({ campaignId: id, agreement }: { campaignId: number; agreement: CampaignAgreement }) {
  return (
    <>
      <h2 className="font-semibold">Agreement between annotators</h2>
      {agreement.dimensions.map((d) => (
        <DimensionAgreementView key={d.dimension.key} d={d} />
      ))}

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Items with the most disagreement</h2>
        {agreement.mostDisagreement.length === 0 ? (
          <p className="text-sm text-slate-500">None yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-2 text-sm">
            {agreement.mostDisagreement.map((m) => (
              <li key={m.itemId}>
                <Link className="rounded bg-rose-50 px-2 py-0.5 text-rose-800 hover:underline" href={`/campaigns/${id}/items/${m.itemId}`}>
                  {m.externalId} ({fmt(m.score, 2)})
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
