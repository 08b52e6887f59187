import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { jobDrillDown } from "@/lib/jobs/items";
import { PageHeader } from "@/components/shell/PageHeader";
import { StarButton } from "@/components/experiments/StarButton";

export const metadata: Metadata = { title: "Item" };

function Block({ title, value }: { title: string; value: unknown }) {
  return (
    <section className="mb-3 rounded border border-slate-200 bg-white p-3">
      <h2 className="mb-1 text-sm font-semibold">{title}</h2>
      <pre className="whitespace-pre-wrap text-xs text-slate-700">{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

type Judgment = { order: string; scoreFirst: number; scoreSecond: number; analysis: unknown; replicate: number };
type DimDetail = { outcome: string; meanA: number; meanB: number; judgments: Judgment[] };

export default async function JobPage({ params }: { params: Promise<{ experimentId: string; jobId: string }> }) {
  await requireRole("admin", "researcher");
  const p = await params;
  const experimentId = Number(p.experimentId);
  const { job, scores, info, dialogues } = orNotFound(() => jobDrillDown(getDb(), experimentId, Number(p.jobId)));
  const pairDetail = dialogues ? (scores.at(-1)?.detail as Record<string, DimDetail> | undefined) : undefined;
  return (
    <>
      <PageHeader
        title={job.itemKey}
        subtitle={
          <>
            <Link className="text-indigo-700 hover:underline" href={`/experiments/${experimentId}`}>
              experiment {experimentId}
            </Link>{" "}
            · {job.task} · {job.method} · run {job.replicate} · {job.status}
          </>
        }
        actions={<StarButton experimentId={experimentId} jobId={job.id} starred={job.starred} />}
      />
      <div data-testid="drilldown">
        {info.length ? (
          <section className="mb-3 rounded border border-slate-200 bg-white p-3" data-testid="item-info">
            <h2 className="mb-1 text-sm font-semibold">User and references (never shown to the assistant)</h2>
            <dl className="grid grid-cols-1 gap-2 text-xs md:grid-cols-2">
              {info.map((i) => (
                <div key={i.label}>
                  <dt className="font-medium text-slate-500">{i.label}</dt>
                  <dd className="whitespace-pre-wrap">{i.text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {dialogues ? (
          <>
            <div className="mb-3 grid grid-cols-2 gap-3" data-testid="dialogues">
              {dialogues.map((d, k) => (
                <section key={d.method} className="rounded border border-slate-200 bg-white p-3">
                  <h2 className="mb-1 text-sm font-semibold">
                    {k === 0 ? "A" : "B"}: {d.method}
                  </h2>
                  {d.dialogue.map((u, i) => (
                    <p key={i} className={`mb-1 rounded px-2 py-1 text-xs ${u.role === "user" ? "bg-slate-50" : "bg-indigo-50"}`}>
                      <b>{u.role === "user" ? "User" : "Assistant"}:</b> {u.content}
                    </p>
                  ))}
                </section>
              ))}
            </div>
            {pairDetail
              ? Object.entries(pairDetail).map(([dim, d]) => (
                  <section key={dim} className="mb-3 rounded border border-slate-200 bg-white p-3" data-testid={`judgments-${dim}`}>
                    <h2 className="mb-1 text-sm font-semibold">
                      {dim}: {d.outcome} for A (mean A {d.meanA.toFixed(2)}, mean B {d.meanB.toFixed(2)})
                    </h2>
                    <table className="w-full text-xs">
                      <thead className="text-left text-slate-500">
                        <tr>
                          <th>#</th>
                          <th>Order</th>
                          <th>A</th>
                          <th>B</th>
                          <th>Analysis</th>
                        </tr>
                      </thead>
                      <tbody>
                        {d.judgments.map((j, i) => {
                          const [sa, sb] = j.order === "AB" ? [j.scoreFirst, j.scoreSecond] : [j.scoreSecond, j.scoreFirst];
                          return (
                            <tr key={i} className="border-t border-slate-100 align-top">
                              <td>{i + 1}</td>
                              <td>{j.order === "AB" ? "A first" : "B first"}</td>
                              <td>{sa}</td>
                              <td>{sb}</td>
                              <td>
                                <pre className="whitespace-pre-wrap">
                                  {typeof j.analysis === "string" ? j.analysis : JSON.stringify(j.analysis, null, 1)}
                                </pre>
                              </td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </section>
                ))
              : null}
          </>
        ) : (
          <>
            <Block title="Input (what the assistant saw)" value={job.input} />
            <Block title="Retrieved memory entries" value={job.retrieved} />
            <Block title="Output" value={job.output} />
          </>
        )}
        {scores.map((s) => (
          <Block key={s.id} title={`Score: ${s.scorer} v${s.version}`} value={{ values: s.values, detail: s.detail }} />
        ))}
        {job.usage ? <Block title="Model calls" value={job.usage} /> : null}
        {job.error ? <Block title="Error" value={job.error} /> : null}
      </div>
    </>
  );
}
