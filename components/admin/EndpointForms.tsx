"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";
import type { PublicEndpoint } from "@/lib/llm/endpoints";

type State = ActionResult<{ ok?: string }>;
/** Admin → Models' save-endpoint or delete-endpoint server action, passed down by the page. */
export type EndpointAction = FormAction<{ ok?: string }>;

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm focus:border-indigo-500 focus:outline-none";

/** Defines an endpoint, or edits one (the key is write-only: empty keeps the saved one). */
export function EndpointForm({ endpoint, action: saveEndpoint }: { endpoint?: PublicEndpoint; action: EndpointAction }) {
  const [state, action, pending] = useActionState<State, FormData>(saveEndpoint, {});
  const e = endpoint;
  const label = e ? `Endpoint ${e.name}` : "Define an endpoint";
  return (
    <form
      action={action}
      aria-label={label}
      className={`grid gap-2 rounded-lg border bg-white p-4 sm:grid-cols-4 ${e ? "border-slate-200" : "border-dashed border-slate-300"}`}
      data-testid={e ? `endpoint-${e.name}` : "endpoint-new"}
    >
      <div className="flex items-baseline justify-between gap-2 sm:col-span-4">
        <h3 className="text-sm font-semibold">{e ? e.name : "New endpoint"}</h3>
        {e ? (
          <span className="text-xs text-slate-500">
            key: <span data-testid="endpoint-key">{e.key}</span> · Batch API:{" "}
            <span data-testid="endpoint-batch-api">{e.batchApi ? "yes (half price)" : "not marked"}</span> · used by{" "}
            <span data-testid="endpoint-used-by">{e.usedBy.length ? e.usedBy.join(", ") : "no role yet"}</span>
          </span>
        ) : null}
      </div>
      {e ? (
        <input type="hidden" name="name" value={e.name} />
      ) : (
        <label className="text-xs text-slate-600">
          Name
          <input name="name" required maxLength={60} placeholder="lab vLLM" className={input} />
        </label>
      )}
      <label className={`text-xs text-slate-600 ${e ? "sm:col-span-2" : ""}`}>
        Base URL
        <input name="baseUrl" required defaultValue={e?.baseUrl ?? ""} placeholder="https://api.openai.com/v1" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        API key {e ? "(empty: keep)" : ""}
        <input name="apiKey" type="password" autoComplete="off" className={input} />
      </label>
      <label className={`text-xs text-slate-600 ${e ? "" : "sm:col-span-1"}`}>
        Models (optional)
        <input name="models" defaultValue={e?.models?.join(", ") ?? ""} placeholder="gpt-4o-mini, gpt-4o" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        In flight
        <input name="concurrency" inputMode="numeric" defaultValue={e?.concurrency ?? ""} placeholder="4" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        Requests/min
        <input name="rpm" inputMode="numeric" defaultValue={e?.rpm ?? ""} placeholder="no limit" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        Tokens/min
        <input name="tpm" inputMode="numeric" defaultValue={e?.tpm ?? ""} placeholder="no limit" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        Timeout (ms)
        <input name="timeoutMs" inputMode="numeric" defaultValue={e?.timeoutMs ?? ""} placeholder="120000" className={input} />
      </label>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-4">
        <label className="flex items-center gap-1 text-xs text-slate-600">
          JSON mode
          <select
            key={e?.jsonMode ?? "off"}
            name="jsonMode"
            defaultValue={e?.jsonMode ?? "off"}
            className="rounded border border-slate-300 px-1 py-0.5 text-xs"
          >
            <option value="off">off</option>
            <option value="json_object">json_object</option>
            <option value="json_schema">json_schema (the call&apos;s schema)</option>
          </select>
        </label>
        <label className="flex items-center gap-1 text-xs text-slate-600" title="It serves /v1/files and /v1/batches (OpenAI Batch API)">
          <input type="checkbox" name="batchApi" defaultChecked={e?.batchApi ?? false} /> Supports the Batch API (half price)
        </label>
        {e ? (
          <label className="flex items-center gap-1 text-xs text-slate-600">
            <input type="checkbox" name="clearKey" /> remove the saved key
          </label>
        ) : null}
        <button
          disabled={pending}
          className="ml-auto rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
        >
          {e ? "Save endpoint" : "Add endpoint"}
        </button>
      </div>
      {e?.jsonModeNote ? (
        <p data-testid="endpoint-json-note" className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-800 sm:col-span-4">
          JSON mode: {e.jsonModeNote}. Saving another mode clears this note and tries that mode.
        </p>
      ) : null}
      <ActionError error={state.error} className="rounded bg-rose-50 px-2 py-1 sm:col-span-4" />
      {state.ok ? (
        <p role="status" className="text-xs text-emerald-700 sm:col-span-4">
          {state.ok}
        </p>
      ) : null}
    </form>
  );
}

/** Removes an endpoint; the roles on it return to their own settings and the environment. */
export function RemoveEndpointForm({ name, action: remove }: { name: string; action: EndpointAction }) {
  const [state, action, pending] = useActionState<State, FormData>(remove, {});
  return (
    <form action={action} className="mt-1 text-right" aria-label={`Remove endpoint ${name}`}>
      <input type="hidden" name="name" value={name} />
      <button disabled={pending} className="text-xs text-rose-700 hover:underline">
        Remove endpoint {name}
      </button>
      <ActionError error={state.error} />
    </form>
  );
}
