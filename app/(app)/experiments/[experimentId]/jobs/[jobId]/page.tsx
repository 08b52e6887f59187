import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { getJob } from "@/lib/jobs/items";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Item" };

function Block({ title, value }: { title: string; value: unknown }) {
  return (
    <section className="mb-3 rounded border border-slate-200 bg-white p-3">
      <h2 className="mb-1 text-sm font-semibold">{title}</h2>
      <pre className="whitespace-pre-wrap text-xs text-slate-700">{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

export default async function JobPage({ params }: { params: Promise<{ experimentId: string; jobId: string }> }) {
  await requireRole("admin", "researcher");
  const p = await params;
  let data;
  try {
    data = getJob(getDb(), Number(p.experimentId), Number(p.jobId));
  } catch (err) {
    if (isAppError(err)) notFound();
    throw err;
  }
  const { job, scores } = data;
  return (
    <>
      <PageHeader title={job.itemKey} subtitle={`${job.task} · ${job.method} · run ${job.replicate} · ${job.status}`} />
      <div data-testid="drilldown">
        <Block title="Input (what the assistant saw)" value={job.input} />
        <Block title="Retrieved memory entries" value={job.retrieved} />
        <Block title="Output" value={job.output} />
        {scores.map((s) => (
          <Block key={s.id} title={`Score: ${s.scorer} v${s.version}`} value={{ values: s.values, detail: s.detail }} />
        ))}
        {job.error ? <Block title="Error" value={job.error} /> : null}
      </div>
    </>
  );
}
