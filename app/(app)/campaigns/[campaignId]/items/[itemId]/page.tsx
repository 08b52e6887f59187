import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { itemView, kindDef } from "@/lib/annotation";
import { PageHeader } from "@/components/shell/PageHeader";
import { ItemContent } from "@/components/annotation/ItemContent";
import { JudgmentsTable } from "@/components/annotation/JudgmentsTable";
import { AdjudicateForm } from "@/components/annotation/AdjudicateForm";
import { reasonLabel } from "@/lib/annotation/adjudication-reasons";
import { adjudicateAction } from "../../../actions";

export const metadata: Metadata = { title: "Item" };
export const dynamic = "force-dynamic";

/** Side by side: the outputs with their systems, every human label, every judge's verdict and judgments. */
export default async function ItemPage({ params }: { params: Promise<{ campaignId: string; itemId: string }> }) {
  await requireRole("admin", "researcher");
  const p = await params;
  const v = orNotFound(() => itemView(getDb(), Number(p.campaignId), Number(p.itemId)));
  const A = v.outputs.find((o) => o.slot === "A");
  const B = v.outputs.find((o) => o.slot === "B");
  const base = `/campaigns/${v.campaign.id}`;
  // Pairwise kinds store labels for side A (an annotator may have seen the sides swapped); a rating is just the label.
  const pairwise = kindDef(v.campaign.kind).pairwise;
  return (
    <div className="space-y-4">
      <PageHeader
        title={`${v.campaign.name} · ${v.item.title}`}
        subtitle={
          <span className="flex flex-wrap gap-3">
            <Link className="text-indigo-700" href={base}>
              ← campaign
            </Link>
            <span className="text-slate-500">item {v.item.externalId}</span>
            {v.source ? (
              <span data-testid="item-source">
                from experiment{" "}
                <Link className="text-indigo-700" href={`/experiments/${v.source.experimentId}`}>
                  #{v.source.experimentId} {v.source.experimentName}
                </Link>
                :{" "}
                <Link className="text-indigo-700" href={v.source.compareHref}>
                  compare view
                </Link>
                {v.source.jobHref ? (
                  <>
                    {" · "}
                    <Link className="text-indigo-700" href={v.source.jobHref}>
                      side A&apos;s item
                    </Link>
                  </>
                ) : null}
              </span>
            ) : null}
          </span>
        }
        actions={
          <div className="flex gap-2 text-sm">
            {v.prev ? (
              <Link className="rounded border border-slate-300 px-2 py-1" href={`${base}/items/${v.prev}`}>
                ← prev item
              </Link>
            ) : null}
            {v.next ? (
              <Link className="rounded border border-slate-300 px-2 py-1" href={`${base}/items/${v.next}`}>
                next item →
              </Link>
            ) : null}
          </div>
        }
      />
      <ItemContent
        kind={v.campaign.kind}
        content={v.item.content}
        left={A?.output}
        right={B?.output}
        sideNames={A && B ? [`A · ${A.system}`, `B · ${B.system}`] : undefined}
      />
      {v.dimensions.map((d) => {
        const humans = v.human.filter((h) => h.dimension === d.key);
        const adj = v.adjudicated.find((a) => a.dimension === d.key);
        const label = (x: string) => d.categories.find((c) => c.value === x)?.label ?? x;
        const values = new Set([...humans.map((h) => h.value), ...v.judges.map((j) => j.labels[d.key]?.value).filter(Boolean)]);
        return (
          <section key={d.key} className={`rounded-lg border bg-white p-4 ${values.size > 1 ? "border-rose-300" : "border-slate-200"}`}>
            <h2 className="font-semibold">
              {d.title}
              {values.size > 1 ? <span className="ml-2 text-xs text-rose-700">disagreement</span> : null}
            </h2>
            <table className="mt-2 w-full text-sm">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="p-1.5">Rater</th>
                  <th className="p-1.5">{pairwise ? "Label (for A)" : "Label"}</th>
                  <th className="p-1.5">As pressed</th>
                  <th className="p-1.5">Comment / analysis</th>
                </tr>
              </thead>
              <tbody>
                {humans.map((h) => (
                  <tr key={`${h.annotator}`} className="border-t border-slate-100">
                    <td className="p-1.5">{h.annotator}</td>
                    <td className="p-1.5">{label(h.value!)}</td>
                    <td className="p-1.5 text-xs text-slate-500">
                      {h.shownValue}
                      {h.swapped ? " (B shown first)" : ""}
                      {h.edited ? " · edited" : ""}
                    </td>
                    <td className="p-1.5 text-xs">{h.comment}</td>
                  </tr>
                ))}
                {v.judges.map((j) =>
                  j.labels[d.key] ? (
                    <tr key={`j${j.id}`} className="border-t border-slate-100 bg-slate-50">
                      <td className="p-1.5">judge: {j.name}</td>
                      <td className="p-1.5">{label(j.labels[d.key].value)}</td>
                      <td className="p-1.5" />
                      <td className="p-1.5 text-xs">
                        {j.labels[d.key].analysis}
                        {j.labels[d.key].judgments?.length ? (
                          <details>
                            <summary className="cursor-pointer">{j.labels[d.key].judgments!.length} judgments (both orders)</summary>
                            <JudgmentsTable judgments={j.labels[d.key].judgments!} />
                          </details>
                        ) : null}
                      </td>
                    </tr>
                  ) : null,
                )}
                {adj ? (
                  <tr className="border-t border-slate-100 bg-emerald-50">
                    <td className="p-1.5">adjudicated</td>
                    <td className="p-1.5">{label(adj.value)}</td>
                    <td />
                    <td className="p-1.5 text-xs">{[reasonLabel(adj.reason), adj.note].filter(Boolean).join(" · ")}</td>
                  </tr>
                ) : null}
              </tbody>
            </table>
            <div className="mt-2">
              <AdjudicateForm
                campaignId={v.campaign.id}
                itemId={v.item.id}
                dimension={d.key}
                categories={d.categories}
                current={adj?.value ?? null}
                currentReason={adj?.reason ?? null}
                currentNote={adj?.note ?? null}
                action={adjudicateAction}
              />
            </div>
          </section>
        );
      })}
    </div>
  );
}
