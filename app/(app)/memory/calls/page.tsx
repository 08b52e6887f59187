import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { callDetail } from "@/lib/llm/call-detail";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Model call" };

/** The model call behind a memory entry (?key=<cache key>): request, accepted reply, attempts. */
export default async function CallPage({ searchParams }: { searchParams: Promise<{ key?: string }> }) {
  await requireRole("admin", "researcher");
  const key = (await searchParams).key ?? "";
  // A bad or unknown key is a missing page, not a server error.
  const d = orNotFound(() => callDetail(getDb(), key));
  const messages = (d.cached?.request as { messages?: Array<{ role: string; content: string }> } | undefined)?.messages ?? [];
  return (
    <>
      <PageHeader
        title={`Model call ${d.attempts[0]?.purpose ?? ""}`}
        subtitle={`cache key ${d.cacheKey}${d.cached ? ` · ${d.cached.model} · ${d.cached.promptTokens} + ${d.cached.completionTokens} tokens` : ""}`}
      />
      <section className="mb-6 space-y-2" data-testid="call-request">
        <h2 className="text-sm font-semibold">Request</h2>
        {messages.map((m, i) => (
          <div key={i} className="rounded border border-slate-200 bg-white p-2">
            <div className="text-xs font-medium uppercase text-slate-500">{m.role}</div>
            <pre className="whitespace-pre-wrap text-xs">{m.content}</pre>
          </div>
        ))}
      </section>
      <section className="mb-6" data-testid="call-response">
        <h2 className="mb-2 text-sm font-semibold">Accepted reply</h2>
        <pre className="whitespace-pre-wrap rounded border border-slate-200 bg-white p-2 text-xs">
          {d.cached?.response ?? "(no accepted reply)"}
        </pre>
      </section>
      <section data-testid="call-attempts">
        <h2 className="mb-2 text-sm font-semibold">Attempts in the ledger</h2>
        <table className="w-full text-xs">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="p-1">#</th>
              <th className="p-1">purpose</th>
              <th className="p-1">memory</th>
              <th className="p-1">try</th>
              <th className="p-1">status</th>
              <th className="p-1">cache</th>
              <th className="p-1">error</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a) => (
              <tr key={a.id} className="border-t border-slate-100">
                <td className="p-1">{a.id}</td>
                <td className="p-1 font-mono">{a.purpose}</td>
                <td className="p-1">{a.memoryVersionId ?? ""}</td>
                <td className="p-1">{a.attempt}</td>
                <td className="p-1">{a.status}</td>
                <td className="p-1">{a.cacheHit ? "hit" : ""}</td>
                <td className="p-1">{a.error ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
