"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";
import { SaveRow } from "./SaveRow";

type Method = { name: string; label: string; url: string; timeoutMs: number; headerNames: string[]; createdAt: string };
type Report = {
  method: string;
  url: string;
  conforms: boolean;
  service: { name: string; version?: string; tasks: string[]; outsideModels: string[] } | null;
  steps: Array<{ step: string; ok: boolean; ms: number; message: string }>;
  violations: string[];
};

type ResetReport = {
  method: string;
  ok: boolean;
  versions: Array<{ version: number; user: string; namespace: string; outcome: string; message: string }>;
};

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

/** The registered external methods, each with its check and removal, and the form that registers one. */
export function MethodsPanel({
  methods,
  add,
  remove,
  check,
  reset,
}: {
  methods: Method[];
  add: FormAction<{ ok?: string }>;
  remove: FormAction<{ ok?: string }>;
  check: FormAction<{ report?: Report }>;
  reset: FormAction<{ reset?: ResetReport }>;
}) {
  const [added, addAction, adding] = useActionState<ActionResult<{ ok?: string }>, FormData>(add, {});
  const [removed, removeAction] = useActionState<ActionResult<{ ok?: string }>, FormData>(remove, {});
  const [checked, checkAction, checking] = useActionState<ActionResult<{ report?: Report }>, FormData>(check, {});
  const [resetDone, resetAction, resetting] = useActionState<ActionResult<{ reset?: ResetReport }>, FormData>(reset, {});
  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white" aria-label="Registered methods">
        {methods.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">No external method yet: register one below, or with pal methods add.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
              <tr>
                <th className="px-4 py-2">Name</th>
                <th className="px-4 py-2">Label in results</th>
                <th className="px-4 py-2">Service</th>
                <th className="px-4 py-2">Headers</th>
                <th className="px-4 py-2" />
              </tr>
            </thead>
            <tbody>
              {methods.map((m) => (
                <tr key={m.name} className="border-b border-slate-100 last:border-0">
                  <td className="px-4 py-2 font-mono">{m.name}</td>
                  <td className="px-4 py-2">{m.label}</td>
                  <td className="px-4 py-2">
                    <span className="font-mono text-xs">{m.url}</span>
                    <span className="block text-xs text-slate-500">
                      timeout {m.timeoutMs / 1000} s · since {m.createdAt}
                    </span>
                  </td>
                  <td className="px-4 py-2 text-xs text-slate-600">
                    {m.headerNames.length ? `${m.headerNames.join(", ")} (saved encrypted)` : "none"}
                  </td>
                  <td className="space-x-2 px-4 py-2 text-right">
                    <form action={checkAction} className="inline">
                      <input type="hidden" name="name" value={m.name} />
                      <button
                        disabled={checking}
                        className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50 disabled:opacity-60"
                      >
                        Check
                      </button>
                    </form>
                    <form action={removeAction} className="inline">
                      <input type="hidden" name="name" value={m.name} />
                      <button
                        className="rounded border border-rose-200 px-2 py-1 text-xs text-rose-700 hover:bg-rose-50"
                        aria-label={`Remove ${m.name}`}
                      >
                        Remove
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ActionError error={removed.error ?? checked.error} className="px-4 pb-2" />
        {removed.ok ? (
          <p role="status" className="px-4 pb-2 text-xs text-emerald-700">
            {removed.ok}
          </p>
        ) : null}
      </section>
      {methods.length ? (
        <form
          action={resetAction}
          className="max-w-2xl space-y-2 rounded-lg border border-slate-200 bg-white p-4"
          aria-label="Reset a method's memory"
        >
          <h2 className="text-sm font-semibold">Reset a stateful method&apos;s memory</h2>
          <p className="text-xs text-slate-500">
            The service forgets each memory version&apos;s namespace (POST /reset); PAL Studio then clears the version, and the next run
            sends every session again. Nothing changes where the service does not confirm, or while a build runs.
          </p>
          <div className="flex items-end gap-3">
            <label className="block text-sm text-slate-700">
              <span className="font-medium">Method</span>
              <select name="name" className={input} aria-label="Method to reset">
                {methods.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="block text-sm text-slate-700">
              <span className="font-medium">User</span>
              <input name="user" className={input} placeholder="every user" aria-label="User to reset" />
            </label>
            <button
              disabled={resetting}
              className="rounded border border-amber-300 px-3 py-1.5 text-sm text-amber-800 hover:bg-amber-50 disabled:opacity-60"
            >
              Reset memory
            </button>
          </div>
          <ActionError error={resetDone.error} className="rounded bg-rose-50 px-2 py-1" />
          {resetDone.reset ? <ResetResult report={resetDone.reset} /> : null}
        </form>
      ) : null}
      {checking ? <p className="text-sm text-slate-600">Checking: walking the protocol against a synthetic user…</p> : null}
      {checked.report ? <CheckResult report={checked.report} /> : null}
      <form
        action={addAction}
        className="max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4"
        aria-label="Register a method"
      >
        <h2 className="text-sm font-semibold">Register a method</h2>
        <div className="grid grid-cols-2 gap-3">
          <label className="block text-sm text-slate-700">
            <span className="font-medium">Name</span>
            <span className="block text-xs text-slate-500">lower case, as pal run --method NAME</span>
            <input name="name" required className={input} placeholder="pyrag" aria-label="Method name" />
          </label>
          <label className="block text-sm text-slate-700">
            <span className="font-medium">Label in results</span>
            <span className="block text-xs text-slate-500">letters, digits and . @ + - _ (default: the name)</span>
            <input name="label" className={input} placeholder="Py-RAG" aria-label="Label in results" />
          </label>
        </div>
        <label className="block text-sm text-slate-700">
          <span className="font-medium">Service URL</span>
          <span className="block text-xs text-slate-500">it serves GET /, POST /sessions and POST /respond</span>
          <input name="url" required className={input} placeholder="http://127.0.0.1:8765" aria-label="Service URL" />
        </label>
        <label className="block text-sm text-slate-700">
          <span className="font-medium">Headers</span>
          <span className="block text-xs text-slate-500">
            one &quot;Name: value&quot; per line, sent with every request; saved encrypted, never shown again
          </span>
          <textarea name="headers" rows={2} className={input} placeholder="Authorization: Bearer …" aria-label="Headers" />
        </label>
        <label className="block text-sm text-slate-700">
          <span className="font-medium">Timeout per request (ms)</span>
          <input
            name="timeout"
            inputMode="numeric"
            className="mt-1 w-40 rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none"
            placeholder="120000"
            aria-label="Timeout per request (ms)"
          />
        </label>
        <SaveRow label="Register" pending={adding} ok={added.ok} />
        <ActionError error={added.error} className="rounded bg-rose-50 px-2 py-1" />
      </form>
    </div>
  );
}

function CheckResult({ report }: { report: Report }) {
  const s = report.service;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 text-sm" aria-label="Check result" data-testid="check-result">
      <h2 className={`font-semibold ${report.conforms ? "text-emerald-700" : "text-rose-700"}`}>
        {report.conforms ? "Conforms" : `${report.violations.length} violation${report.violations.length > 1 ? "s" : ""}`}
        {s ? ` · ${s.name}${s.version ? ` ${s.version}` : ""}, answers ${s.tasks.join(", ")}` : ""}
      </h2>
      {s?.outsideModels.length ? (
        <p className="text-xs text-amber-700">
          Calls models outside the run (outside the ledger and the audit): {s.outsideModels.join(", ")}
        </p>
      ) : null}
      <ul className="mt-2 space-y-1">
        {report.steps.map((st) => (
          <li key={st.step} className="flex gap-2 text-xs">
            <span className={st.ok ? "text-emerald-700" : "text-rose-700"}>{st.ok ? "ok" : "failed"}</span>
            <span className="font-mono">{st.step}</span>
            <span className="text-slate-500">{st.ms} ms</span>
            {st.message ? <span className="text-slate-600">{st.message}</span> : null}
          </li>
        ))}
      </ul>
      {report.violations.length ? (
        <ul className="mt-2 list-disc pl-5 text-xs text-rose-700">
          {report.violations.map((v) => (
            <li key={v}>{v}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ResetResult({ report }: { report: ResetReport }) {
  if (!report.versions.length)
    return (
      <p role="status" className="text-xs text-slate-600">
        {report.method}: no memory to reset.
      </p>
    );
  return (
    <ul role="status" className="space-y-1 text-xs" data-testid="reset-result">
      {report.versions.map((v) => (
        <li key={v.version}>
          <span className={v.outcome === "reset" ? "text-emerald-700" : "text-rose-700"}>{v.outcome}</span>{" "}
          <span className="text-slate-700">
            user {v.user}, memory version {v.version} ({v.namespace}): {v.message}
          </span>
        </li>
      ))}
    </ul>
  );
}
