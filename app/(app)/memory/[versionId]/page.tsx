import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getMemoryVersion, listSteps } from "@/lib/memory/versions";
import { callPurposes, showMemory } from "@/lib/memory/show";
import { ledgerPage, listCalls, summarizeCalls } from "@/lib/llm/ledger";
import { PageHeader } from "@/components/shell/PageHeader";
import { LedgerTable } from "@/components/llm/LedgerTable";
import { GenericMemoryTable, H2MemoryInspector } from "@/components/memory/H2MemoryInspector";
import { MemoryBankRetention } from "@/components/memory/MemoryBankRetention";
import { retentionBySession } from "@/lib/assistants/memorybank/retention";
import { sessionTime } from "@/lib/assistants/baselines/adapter";
import { datasetById, loadSessions } from "@/lib/assistants/core/sessions";

export const metadata: Metadata = { title: "Memory version" };

export default async function MemoryVersionPage({
  params,
  searchParams,
}: {
  params: Promise<{ versionId: string }>;
  searchParams: Promise<{ calls?: string; status?: string }>;
}) {
  await requireRole("admin", "researcher");
  const id = Number((await params).versionId);
  const want = await searchParams;
  const db = getDb();
  const v = Number.isInteger(id) ? getMemoryVersion(db, id) : null;
  if (!v) notFound();
  const steps = listSteps(db, v.id);
  const entries = showMemory(db, v.id);
  const kinds = Object.entries(entries.reduce<Record<string, number>>((m, e) => ((m[e.kind] = (m[e.kind] ?? 0) + 1), m), {}));
  const origin = { memoryVersionId: v.id };
  const loaded = loadSessions(db, datasetById(db, v.datasetId), v.userKey);
  const sessions = loaded.map((x) => ({ seq: x.seq, key: x.key, split: x.split }));
  const shown = entries.map((e, i) => ({ ...e, id: i }));
  const summary = summarizeCalls(db, origin);
  const page = ledgerPage(summary, { page: want.calls, status: want.status });
  return (
    <>
      <PageHeader
        title={`${v.method} memory of user ${v.userKey}`}
        subtitle={`${v.status}, ${v.sessionsDone}/${v.sessionsTotal} sessions, prompts in ${v.language}, settings ${v.settingsKey.slice(0, 12)}`}
      />
      {v.error ? (
        <p role="alert" className="mb-4 rounded bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {v.error}
        </p>
      ) : null}
      <p className="mb-4 text-sm text-slate-600" data-testid="memory-summary">
        {steps.filter((s) => s.status === "complete").length} session step(s) complete
        {steps.some((s) => s.status !== "complete")
          ? `, ${steps
              .filter((s) => s.status !== "complete")
              .map((s) => `${s.sessionKey} ${s.status}`)
              .join(", ")}`
          : ""}
        {" · "}
        {kinds.map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`).join(" · ")}
      </p>
      <section className="mb-8" aria-label="Memory as built">
        {v.method.startsWith("h2memory") ? (
          <H2MemoryInspector sessions={sessions} entries={shown} callsBase="/memory/calls" />
        ) : (
          <>
            {v.method === "memorybank" ? (
              <MemoryBankRetention
                rows={retentionBySession(
                  entries,
                  loaded.map((x) => ({ seq: x.seq, at: sessionTime(x) })),
                )}
                sessions={sessions}
              />
            ) : null}
            <h2 className="mb-2 text-sm font-semibold">Entries, session by session</h2>
            <GenericMemoryTable method={v.method} entries={shown} callsBase="/memory/calls" purposes={callPurposes(db, v.id)} />
          </>
        )}
      </section>
      {/* The memory itself first; the raw settings are for checking a run, one click away. */}
      <details className="mb-8 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <summary className="cursor-pointer font-semibold">Settings (raw)</summary>
        <pre className="mt-2 overflow-x-auto text-xs text-slate-600">{JSON.stringify(v.settings, null, 2)}</pre>
      </details>
      <h2 id="model-calls" className="mb-2 text-sm font-semibold">
        Model calls
      </h2>
      <LedgerTable
        calls={listCalls(db, origin, { limit: page.limit, offset: page.offset, status: page.status ?? undefined })}
        summary={summary}
        page={page}
        hrefFor={(n, status) => {
          const q = new URLSearchParams();
          if (n > 1) q.set("calls", String(n));
          if (status) q.set("status", status);
          return `/memory/${v.id}${q.size ? `?${q}` : ""}#model-calls`;
        }}
      />
    </>
  );
}
