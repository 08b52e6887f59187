import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { experimentResults } from "@/lib/experiments/results";
import { experimentProgress } from "@/lib/experiments/progress";
import { getExperimentRow } from "@/lib/experiments/control";
import { listItemRows } from "@/lib/experiments/items";
import { PageHeader } from "@/components/shell/PageHeader";
import { ExperimentControls } from "@/components/experiments/ExperimentControls";
import { ResultsTable } from "@/components/experiments/ResultsTable";
import { ItemsTable } from "@/components/experiments/ItemsTable";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { PRESETS, presetOverrides } from "@/lib/experiments/presets";

export const metadata: Metadata = { title: "Experiment" };

export default async function ExperimentPage({ params }: { params: Promise<{ experimentId: string }> }) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const db = getDb();
  const e = orNotFound(() => getExperimentRow(db, id));
  const res = experimentResults(db, id);
  const prog = experimentProgress(db, id);
  const items = listItemRows(db, id);
  const tasks = [...new Set(res.summary.map((s) => s.task))];
  const config = e.config as { models?: Record<string, unknown>; retriever?: string; repeats?: number; seed?: number };
  const parsed = parseExperimentConfig(e.config);
  const overrides = presetOverrides(parsed);
  const show = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  const exportLink = (format: string, label: string) => (
    <a
      className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
      href={`/api/experiments/${id}/export?format=${format}`}
    >
      {label}
    </a>
  );
  return (
    <>
      <PageHeader
        title={e.name}
        subtitle={`Experiment ${id} · reference ${res.reference}${e.error ? ` · ${e.error}` : ""}`}
        actions={
          <div className="flex gap-2">
            {exportLink("csv", "CSV")}
            {exportLink("json", "JSON")}
            <Link className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50" href={`/experiments/${id}/case-studies`}>
              Case studies
            </Link>
          </div>
        }
      />
      <ExperimentControls id={id} initial={prog} />
      <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-xs text-slate-600" data-testid="settings">
        <p className="mb-1" data-testid="preset">
          Protocol: <b>{parsed.preset ? PRESETS[parsed.preset].label : "custom (no preset)"}</b>
          {parsed.preset
            ? ` · ${overrides.length ? `${overrides.length} override${overrides.length > 1 ? "s" : ""}` : "no overrides"}`
            : ""}{" "}
          ·{" "}
          <Link className="text-indigo-700 hover:underline" href="/experiments/protocol">
            protocol notes
          </Link>
        </p>
        {overrides.length ? (
          <table className="mb-2 w-full" data-testid="preset-overrides">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="pr-2">Setting</th>
                <th className="pr-2">Preset</th>
                <th>This experiment</th>
              </tr>
            </thead>
            <tbody>
              {overrides.map((o) => (
                <tr key={o.path} className="border-t border-slate-100 align-top">
                  <td className="pr-2 font-mono">{o.path}</td>
                  <td className="pr-2">{show(o.preset)}</td>
                  <td>{show(o.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <p>
          Retriever: <b>{config.retriever ?? "bm25"}</b> · repeats: <b>{config.repeats ?? 1}</b> · seed: <b>{config.seed ?? 0}</b> · models:{" "}
          <b>{Object.keys(config.models ?? {}).length ? JSON.stringify(config.models) : "the configured defaults per role"}</b>
        </p>
        <details className="mt-1">
          <summary>Full config</summary>
          <pre className="overflow-x-auto">{JSON.stringify(e.config, null, 1)}</pre>
        </details>
      </section>
      {tasks.map((task) => {
        const rows = res.summary.filter((s) => s.task === task);
        if (!Object.keys(rows[0]?.metrics ?? {}).length) return null;
        return (
          <ResultsTable
            key={task}
            task={task}
            reference={res.reference}
            rows={rows.map((r) => ({
              ...r,
              ledger: res.ledgerByMethod[r.method] ?? null,
              memory: res.memoryBuildByMethod[r.method] ?? null,
            }))}
          />
        );
      })}
      {res.pairwise.length > 0 && (
        <section className="mb-4">
          <h2 className="mb-1 font-semibold">dialogue: Win / Tie / Lose</h2>
          {res.pairwiseTieMargin ? (
            <p className="mb-1 text-xs text-slate-600" data-testid="applied-tie-margin">
              Read at tie margin <b>{res.pairwiseTieMargin.margin}</b> (re-derived from the stored mean scores)
              {res.pairwiseTieMargin.source ? `, calibrated on ${res.pairwiseTieMargin.source}` : ""}.
            </p>
          ) : null}
          <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="results-pairwise">
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="p-2">Method</th>
                <th className="p-2">vs</th>
                <th className="p-2">Dimension</th>
                <th className="p-2">W / T / L</th>
              </tr>
            </thead>
            <tbody>
              {res.pairwise.map((p) => (
                <tr key={`${p.a}${p.b}${p.dimension}`} className="border-t border-slate-100">
                  <td className="p-2">{p.a}</td>
                  <td className="p-2">{p.b}</td>
                  <td className="p-2">{p.dimension}</td>
                  <td className="p-2">
                    {p.win} / {p.tie} / {p.lose}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <ItemsTable experimentId={id} initial={items} />
    </>
  );
}
