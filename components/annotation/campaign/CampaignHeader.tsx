/** The campaign page's header: name, kind, k, status and the two systems; the adjudication queue, guidelines, exports and Close / Reopen. */
import Link from "next/link";
import { PageHeader } from "@/components/shell/PageHeader";
import { methodDisplayName } from "@/lib/experiments/method-choices";
import { CampaignStatusForm, type CampaignStatusAction } from "@/components/annotation/CampaignStatusForm";

export function CampaignHeader({
  campaign: c,
  kindLabel,
  systems,
  setStatus,
}: {
  campaign: { id: number; name: string; perItem: number; status: string; config?: Record<string, unknown> | null };
  kindLabel: string;
  systems: { A?: string; B?: string };
  setStatus: CampaignStatusAction;
}) {
  return (
    <PageHeader
      title={c.name}
      subtitle={
        <>
          {kindLabel} · k = {c.perItem} · {c.status}
          {systems.A ? (
            <>
              {" "}
              · A = <b title={systems.A}>{methodDisplayName({ name: systems.A })}</b>, B ={" "}
              <b title={systems.B}>{systems.B ? methodDisplayName({ name: systems.B }) : ""}</b>
            </>
          ) : null}
          {typeof c.config?.sampleNote === "string" ? <span className="mt-1 block text-amber-800">{c.config.sampleNote}</span> : null}
        </>
      }
      actions={
        <div className="flex gap-2 text-sm">
          <Link className="rounded border border-slate-300 px-2 py-1" href={`/campaigns/${c.id}/adjudicate`}>
            Adjudicate
          </Link>
          <Link className="rounded border border-slate-300 px-2 py-1" href={`/campaigns/${c.id}/guidelines`}>
            Guidelines
          </Link>
          <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${c.id}/export?format=csv`}>
            Labels CSV
          </a>
          <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${c.id}/export?format=csv&what=agreement`}>
            Agreement CSV
          </a>
          <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${c.id}/export?format=json`}>
            Labels + agreement JSON
          </a>
          <CampaignStatusForm campaignId={c.id} status={c.status} action={setStatus} />
        </div>
      }
    />
  );
}
