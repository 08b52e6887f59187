import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { getCampaign } from "@/lib/annotation";
import { comparedSystems, guidelineVersionsOf } from "@/lib/annotation/guideline-versions";
import { PageHeader } from "@/components/shell/PageHeader";
import { Guidelines } from "@/components/annotation/Guidelines";
import { GuidelinesEditForm } from "@/components/annotation/campaign/GuidelinesEditForm";
import { editGuidelinesAction } from "../../actions";

export const metadata: Metadata = { title: "Guidelines" };
export const dynamic = "force-dynamic";

/** A campaign's guidelines: edit them (a new version) and read every earlier version with its author and time. */
export default async function GuidelinesPage({ params }: { params: Promise<{ campaignId: string }> }) {
  await requireRole("admin", "researcher");
  const db = getDb();
  const id = Number((await params).campaignId);
  const c = orNotFound(() => getCampaign(db, id));
  const versions = guidelineVersionsOf(db, id).reverse();
  return (
    <div className="space-y-4">
      <PageHeader
        title={`${c.name} · guidelines`}
        subtitle={
          <span className="flex flex-wrap gap-3">
            <Link className="text-indigo-700" href={`/campaigns/${id}`}>
              ← campaign
            </Link>
            <span data-testid="guidelines-version">version {c.guidelinesVersion}</span>
            <span>each label records the version its annotator&apos;s page showed</span>
          </span>
        }
      />
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <GuidelinesEditForm
          key={c.guidelinesVersion}
          campaignId={id}
          current={c.guidelines ?? ""}
          version={c.guidelinesVersion}
          systems={comparedSystems(db, id)}
          action={editGuidelinesAction}
        />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Versions</h2>
        <ol className="space-y-2" data-testid="guideline-versions">
          {versions.map((v) => (
            <li key={v.version} className="rounded border border-slate-100 p-2">
              <details open={v.version === c.guidelinesVersion}>
                <summary className="cursor-pointer text-sm">
                  <b>Version {v.version}</b>
                  {v.version === c.guidelinesVersion ? <span className="ml-2 text-xs text-emerald-700">current</span> : null}
                  <span className="ml-2 text-xs text-slate-500">
                    {v.author} · {new Date(v.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC
                  </span>
                </summary>
                <div className="mt-2">
                  <Guidelines text={v.guidelines} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
