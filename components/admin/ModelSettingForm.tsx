"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import type { ModelCheck } from "@/lib/llm/check";
import type { PublicModelConfig } from "@/lib/llm/config";
import { ActionError } from "@/components/shell/ActionError";

type Result = { ok?: string; check?: ModelCheck };
type ModelActionState = ActionResult<Result>;
/** Admin → Models' server actions (save a setting, test a connection), passed down by the page. */
export type ModelFormAction = FormAction<Result>;

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm focus:border-indigo-500 focus:outline-none";

/** One role or named judge: edit the override (the key is write-only) and test the connection. */
export function ModelSettingForm({
  config,
  endpoints = [],
  actions,
}: {
  config: PublicModelConfig;
  endpoints?: string[];
  actions: { save: ModelFormAction; test: ModelFormAction };
}) {
  // The row's own endpoint (an inherited one shows as the default, not as a choice saved here).
  const own = config.endpoint && !config.endpoint.inherited ? config.endpoint.name : "";
  const [saved, save, saving] = useActionState<ModelActionState, FormData>(actions.save, {});
  const [tested, test, testing] = useActionState<ModelActionState, FormData>(actions.test, {});
  const c = tested.check;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`model-${config.name}`}>
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h2 className="font-mono text-sm font-semibold">{config.name}</h2>
        <span className="text-xs text-slate-500">
          {config.model ?? "no model"} ({config.modelFrom}) · key:{" "}
          <span data-testid="key-status" className={config.key === "unreadable" ? "font-medium text-rose-700" : undefined}>
            {config.key}
          </span>
        </span>
      </div>
      {config.keyError ? (
        <p role="alert" data-testid="key-error" className="mb-2 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">
          {config.keyError}
        </p>
      ) : null}
      <form action={save} className="grid gap-2 sm:grid-cols-2" aria-label={`Settings of ${config.name}`}>
        <input type="hidden" name="name" value={config.name} />
        <label className="text-xs text-slate-600 sm:col-span-2">
          Endpoint
          {/* Not in the label: its name stays "Endpoint" (and never matches "Base URL"). */}
          {/* Keyed by the saved choice: React sets a select's default only when it mounts, and resets the form to
              that default after each save, so without the key a second Save sent "none" and unlinked the endpoint. */}
          <select key={own} name="endpoint" defaultValue={own} className={input} title="A base URL saved below lets go of the endpoint.">
            <option value="">
              {config.endpoint?.inherited ? `none here (judge role: ${config.endpoint.name})` : "none: the URL and key below"}
            </option>
            {endpoints.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs text-slate-600">
          Base URL ({config.baseURLFrom === "endpoint" ? `endpoint ${config.endpoint?.name}` : config.baseURLFrom})
          <input
            name="baseUrl"
            placeholder={config.baseURL}
            defaultValue={config.baseURLFrom === "settings" ? config.baseURL : ""}
            className={input}
          />
        </label>
        <label className="text-xs text-slate-600">
          Model
          <input
            name="model"
            placeholder={config.model ?? ""}
            defaultValue={config.modelFrom === "settings" ? (config.model ?? "") : ""}
            className={input}
          />
        </label>
        <label className="text-xs text-slate-600">
          API key (empty: keep)
          <input name="apiKey" type="password" autoComplete="off" className={input} />
        </label>
        <label className="text-xs text-slate-600">
          Parameters (JSON)
          <input
            name="params"
            defaultValue={Object.keys(config.params).length ? JSON.stringify(config.params) : ""}
            placeholder='{"temperature": 0}'
            className={input}
          />
        </label>
        <label className="flex items-center gap-1 text-xs text-slate-600">
          <input type="checkbox" name="clearKey" /> remove the saved key
        </label>
        <div className="flex justify-end">
          <button
            disabled={saving}
            className="rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
          >
            Save
          </button>
        </div>
      </form>
      <form action={test} className="mt-2 flex items-center gap-2">
        <input type="hidden" name="name" value={config.name} />
        <button disabled={testing} className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50 disabled:opacity-60">
          {testing ? "Testing…" : "Test connection"}
        </button>
        {c ? (
          <span role="status" className={`text-xs ${c.status === "ok" ? "text-emerald-700" : "text-rose-700"}`}>
            {c.status === "ok"
              ? `answered in ${c.latencyMs} ms: ${c.reply}`
              : c.status === "failed"
                ? `failed: ${c.error}`
                : "not configured"}
          </span>
        ) : null}
      </form>
      {saved.error || tested.error ? (
        <p role="alert" className="mt-2 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">
          {saved.error ?? tested.error}
        </p>
      ) : null}
      {saved.ok ? (
        <p role="status" className="mt-2 text-xs text-emerald-700">
          {saved.ok}
        </p>
      ) : null}
    </div>
  );
}

/** Adds a named judge configuration ("judge:<name>"). */
export function AddJudgeForm({ action: saveModel }: { action: ModelFormAction }) {
  const [state, action, pending] = useActionState<ModelActionState, FormData>(saveModel, {});
  return (
    <form
      action={action}
      className="flex flex-wrap items-end gap-2 rounded-lg border border-dashed border-slate-300 bg-white p-4"
      aria-label="Add a named judge"
    >
      <label className="text-xs text-slate-600">
        Judge name
        <input name="name" required pattern="judge:[a-z0-9][a-z0-9_\-]{0,40}" defaultValue="judge:" className={input} />
      </label>
      <label className="text-xs text-slate-600">
        Model
        <input name="model" required className={input} />
      </label>
      <label className="text-xs text-slate-600">
        Base URL (empty: the judge role&apos;s)
        <input name="baseUrl" className={input} />
      </label>
      <button
        disabled={pending}
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        Add judge
      </button>
      <ActionError error={state.error} className="w-full" />
    </form>
  );
}
