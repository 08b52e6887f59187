import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { experimentResults } from "@/lib/jobs/results";
import { experimentProgress } from "@/lib/jobs/progress";
import { getExperimentRow } from "@/lib/jobs/control";
import { listJobs } from "@/lib/jobs/items";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Experiment" };

const fmt = (v: number | null) => (v === null ? "—" : v.toFixed(2));

export default async function ExperimentPage({ params }: { params: Promise<{ experimentId: string }> }) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const db = getDb();
  let e;
  try {
    e = getExperimentRow(db, id);
  } catch (err) {
    if (isAppError(err)) notFound();
    throw err;
  }
  const res = experimentResults(db, id);
  const prog = experimentProgress(db, id);
  const jobRows = listJobs(db, id, { limit: 300 });
  const tasks = [...new Set(res.summary.map((s) => s.task))];
  return (
    <>
      <PageHeader title={e.name} subtitle={`Experiment ${id} · ${e.status} · reference ${res.reference}`} />
      <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="progress">
        <div className="h-2 w-full rounded bg-slate-100"><div className="h-2 rounded bg-indigo-500" style={{ width: `${Math.round(prog.fraction * 100)}%` }} /></div>
        <p className="mt-1">{prog.done} done · {prog.failed} failed · {prog.running} running · {prog.queued} queued of {prog.total}{prog.etaMs !== null ? ` · ETA ${Math.ceil(prog.etaMs / 1000)} s` : ""}</p>
        <pre className="mt-2 overflow-x-auto text-xs text-slate-600">{JSON.stringify(e.config, null, 1)}</pre>
      </section>
      {tasks.map((task) => {
        const rows = res.summary.filter((s) => s.task === task);
        const metrics = Object.keys(rows[0]?.metrics ?? {});
        if (!metrics.length) return null;
        return (
          <section key={task} className="mb-4">
            <h2 className="mb-1 font-semibold">{task}</h2>
            <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid={`results-${task}`}>
              <thead className="bg-slate-50 text-left text-xs text-slate-500"><tr><th className="p-2">Method</th><th className="p-2">Runs</th>{metrics.map((m) => <th key={m} className="p-2">{m}</th>)}<th className="p-2">Calls / cache hits / tokens</th></tr></thead>
              <tbody>
                {rows.map((r) => {
                  const l = res.ledgerByMethod[r.method];
                  return (
                    <tr key={r.method} className="border-t border-slate-100">
                      <td className="p-2">{r.method}</td>
                      <td className="p-2">{r.runs}</td>
                      {metrics.map((m) => {
                        const x = r.metrics[m];
                        return <td key={m} className="p-2">{fmt(x.mean)}{x.sd !== null ? ` ± ${fmt(x.sd)}` : ""}{x.p !== null ? <span className="text-xs text-slate-500"> p={x.p.toFixed(3)}</span> : null}</td>;
                      })}
                      <td className="p-2 text-xs">{l ? `${l.calls} / ${l.cacheHits} / ${l.promptTokens + l.completionTokens}` : "—"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        );
      })}
      {res.pairwise.length > 0 && (
        <section className="mb-4">
          <h2 className="mb-1 font-semibold">dialogue: Win / Tie / Lose</h2>
          <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="results-pairwise">
            <thead className="bg-slate-50 text-left text-xs text-slate-500"><tr><th className="p-2">Method</th><th className="p-2">vs</th><th className="p-2">Dimension</th><th className="p-2">W / T / L</th></tr></thead>
            <tbody>{res.pairwise.map((p) => <tr key={`${p.a}${p.b}${p.dimension}`} className="border-t border-slate-100"><td className="p-2">{p.a}</td><td className="p-2">{p.b}</td><td className="p-2">{p.dimension}</td><td className="p-2">{p.win} / {p.tie} / {p.lose}</td></tr>)}</tbody>
          </table>
        </section>
      )}
      <section>
        <h2 className="mb-1 font-semibold">Items</h2>
        <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="job-list">
          <thead className="bg-slate-50 text-left text-xs text-slate-500"><tr><th className="p-2">Item</th><th className="p-2">Task</th><th className="p-2">Method</th><th className="p-2">Run</th><th className="p-2">Status</th></tr></thead>
          <tbody>
            {jobRows.map((j) => (
              <tr key={j.id} className="border-t border-slate-100">
                <td className="p-2"><Link className="text-indigo-700 hover:underline" href={`/experiments/${id}/jobs/${j.id}`}>{j.itemKey}</Link></td>
                <td className="p-2">{j.task}</td><td className="p-2">{j.method}</td><td className="p-2">{j.replicate}</td>
                <td className="p-2">{j.status}{j.error ? <span className="text-xs text-red-700"> {j.error}</span> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
