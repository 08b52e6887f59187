import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { caseStudies, outputText } from "@/lib/jobs/case-studies";
import { getExperimentRow } from "@/lib/jobs/control";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Case studies" };

export default async function CaseStudiesPage({ params }: { params: Promise<{ experimentId: string }> }) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const db = getDb();
  const e = orNotFound(() => getExperimentRow(db, id));
  const list = caseStudies(db, id);
  return (
    <>
      <PageHeader
        title={`Case studies: ${e.name}`}
        subtitle={
          <Link className="text-indigo-700 hover:underline" href={`/experiments/${id}`}>
            back to the experiment
          </Link>
        }
        actions={
          <a
            className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
            href={`/api/experiments/${id}/export?format=md`}
          >
            Export Markdown
          </a>
        }
      />
      {list.length === 0 ? (
        <EmptyState title="No starred items">Star items (★) in the experiment&apos;s item list to collect them here.</EmptyState>
      ) : null}
      {list.map((c) => (
        <article key={`${c.task}/${c.itemKey}`} className="mb-6 rounded-lg border border-slate-200 bg-white p-4" data-testid="case-study">
          <h2 className="mb-2 font-semibold">
            {c.task} · {c.itemKey}
          </h2>
          <dl className="mb-3 grid grid-cols-1 gap-2 text-xs md:grid-cols-2">
            {c.info.map((i) => (
              <div key={i.label}>
                <dt className="font-medium text-slate-500">{i.label}</dt>
                <dd className="whitespace-pre-wrap">{i.text}</dd>
              </div>
            ))}
          </dl>
          <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(${Math.min(c.outputs.length, 4)}, minmax(0, 1fr))` }}>
            {c.outputs.map((o) => (
              <section key={o.jobId} className="rounded border border-slate-100 p-2">
                <h3 className="text-sm font-medium">
                  <Link className="text-indigo-700 hover:underline" href={`/experiments/${id}/jobs/${o.jobId}`}>
                    {o.method}
                  </Link>
                  {o.replicate ? ` (run ${o.replicate})` : ""}
                </h3>
                <pre className="whitespace-pre-wrap text-xs">{outputText(o.output)}</pre>
                <p className="mt-1 text-xs text-slate-500">
                  {Object.entries(o.scores)
                    .flatMap(([s, v]) => Object.entries(v).map(([k, x]) => `${s}.${k}=${x === null ? "—" : Number(x.toFixed(2))}`))
                    .join(" · ")}
                </p>
              </section>
            ))}
          </div>
        </article>
      ))}
    </>
  );
}
