"use client";
import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { postJson } from "./api";
import { PresetSettingsTable } from "./PresetSettingsTable";
import { BatchApiNote } from "@/components/llm/BatchApiNote";

type DatasetOption = { id: number; name: string; kind: string; kindLabel: string };
type TaskOption = { name: string; label: string; datasetKind: string };
type DryRunRow = {
  method: string;
  task: string;
  items: number;
  calls: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
};

type Range = { min: number; max: number };
type BuildRow = {
  method: string;
  users: number;
  usersBuilt: number;
  calls: Record<string, Range> | null;
  total: Range | null;
  exact: boolean;
  note: string | null;
  promptTokens: Range | null;
  completionTokens: Range | null;
};
type Limits = { maxMethods: number; maxRepeats: number; maxJobs: number; launchesPerMinute: number };
type Estimate = {
  rows: DryRunRow[];
  total: DryRunRow;
  builds: BuildRow[];
  withBuilds: { calls: Range; promptTokens: Range; completionTokens: Range };
  worstCase?: { attempts: number; triesPerCall: number; jobAttempts: number; guardProbe: number };
  /** The launch's size against the admin's limits; `over` says which it passes. */
  limits: { jobs: number; methods: number; repeats: number; max: Limits; over: string[] };
};
const num = (n: number) => n.toLocaleString("en");
const span = (r: Range | null | undefined) => (!r ? "?" : r.min === r.max ? String(r.min) : `${r.min}–${r.max}`);

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

/** Estimate (dry run) and launch an experiment; the estimate is shown before anything is spent. */
type MethodOption = { name: string; kinds: string[] };
/** A protocol preset as the server describes it (lib/experiments/presets.ts). */
export type PresetOption = {
  id: string;
  label: string;
  description: string;
  datasetKind: string;
  config: Record<string, unknown>;
  settings: Array<{ path: string; value: unknown; source: string }>;
};

export function NewExperimentForm({
  datasets,
  tasks,
  methods: allMethods,
  presets = [],
  judgeBatchApi = false,
}: {
  datasets: DatasetOption[];
  tasks: TaskOption[];
  methods: MethodOption[];
  presets?: PresetOption[];
  /** Whether the judge's endpoint is marked as serving the Batch API (Admin → Models); batches are offered either way. */
  judgeBatchApi?: boolean;
}) {
  const router = useRouter();
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? 0);
  const [presetId, setPresetId] = useState("");
  const preset = presets.find((p) => p.id === presetId) ?? null;
  const kind = datasets.find((d) => d.id === datasetId)?.kind;
  const methods = allMethods.filter((m) => !kind || m.kinds.includes(kind)).map((m) => m.name);
  const [advanced, setAdvanced] = useState("");
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>(allMethods.slice(0, 1).map((m) => m.name));
  const [taskSel, setTaskSel] = useState<string[]>([]);
  const [users, setUsers] = useState("");
  const [repeats, setRepeats] = useState(1);
  const [seed, setSeed] = useState(0);
  const [retriever, setRetriever] = useState("bm25");
  const [judgeBatch, setJudgeBatch] = useState(false);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const methodNames = picked.filter((m) => methods.includes(m));
  // The advanced JSON (method options and labels, models, hicupid splits and judges, ...) goes over the fields.
  const extra = (): Record<string, unknown> => {
    if (!advanced.trim()) return {};
    const v = JSON.parse(advanced);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("advanced config: a JSON object is expected");
    return v;
  };
  // With a preset, the fields start from its values and only what the user changed is sent over it.
  const choosePreset = (id: string) => {
    setPresetId(id);
    setEstimate(null);
    const p = presets.find((x) => x.id === id);
    if (!p) return;
    const ds = datasets.find((d) => d.kind === p.datasetKind);
    if (ds) setDatasetId(ds.id);
    setRepeats(Number(p.config.repeats ?? 1));
    setSeed(Number(p.config.seed ?? 0));
    setRetriever(String(p.config.retriever ?? "bm25"));
    setUsers("");
  };
  const presetConfig = (p: PresetOption) => {
    const changed: Record<string, unknown> = {};
    if (repeats !== Number(p.config.repeats ?? 1)) changed.repeats = repeats;
    if (seed !== Number(p.config.seed ?? 0)) changed.seed = seed;
    if (retriever !== String(p.config.retriever ?? "bm25")) changed.retriever = retriever;
    if (users.trim())
      changed.users = users
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
    return { ...p.config, ...changed, ...(judgeBatch ? { judgeBatch } : {}), ...extra(), preset: p.id };
  };
  const config = () =>
    preset
      ? presetConfig(preset)
      : {
          methods: methodNames.map((n) => ({ name: n })),
          tasks: taskSel.filter((t) => tasks.find((x) => x.name === t)?.datasetKind === kind),
          users: users.trim()
            ? users
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean)
            : "all",
          repeats,
          seed,
          retriever,
          ...(judgeBatch ? { judgeBatch } : {}),
          ...extra(),
        };
  const submit = async (dryRun: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const r = await postJson<{ estimate?: Estimate; experiment?: { id: number } }>("/api/experiments", {
        datasetId,
        name: name || undefined,
        config: config(),
        dryRun,
      });
      if (r.estimate) setEstimate(r.estimate);
      if (r.experiment) router.push(`/experiments/${r.experiment.id}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  return (
    <form
      className="mb-6 space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="New experiment"
      onSubmit={(e) => e.preventDefault()}
    >
      <h2 className="text-sm font-semibold">New experiment</h2>
      {presets.length ? (
        <label className="block text-xs text-slate-600">
          Protocol
          <select className={input} value={presetId} onChange={(e) => choosePreset(e.target.value)} data-testid="preset">
            <option value="">Custom (choose methods and tasks)</option>
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {preset ? (
        <details className="rounded border border-indigo-100 bg-indigo-50/40 p-2 text-xs text-slate-700" data-testid="preset-settings" open>
          <summary>
            {preset.description} Every setting and where it comes from (changing repeats, seed, retriever, users or the advanced JSON
            records an override;{" "}
            <Link className="text-indigo-700 underline" href="/experiments/protocol">
              protocol notes
            </Link>
            ):
          </summary>
          <PresetSettingsTable settings={preset.settings} className="mt-1 w-full" />
        </details>
      ) : null}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <label className="block text-xs text-slate-600">
          Name
          <input className={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="(automatic)" />
        </label>
        <label className="block text-xs text-slate-600">
          Data set
          <select className={input} value={datasetId} onChange={(e) => setDatasetId(Number(e.target.value))} data-testid="dataset">
            {/* Grouped by kind (PAL-Set, HiCUPID), in the order the data sets came. */}
            {[...new Set(datasets.map((d) => d.kindLabel))].map((label) => (
              <optgroup key={label} label={label}>
                {datasets
                  .filter((d) => d.kindLabel === label)
                  .map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label className="block text-xs text-slate-600">
          Users (comma-separated ids; empty: all)
          <input className={input} value={users} onChange={(e) => setUsers(e.target.value)} data-testid="users" />
        </label>
      </div>
      {preset ? null : (
        <>
          <fieldset className="text-xs text-slate-600">
            <legend>Methods (the first is the reference)</legend>
            <div className="mt-1 flex flex-wrap gap-3">
              {methods.map((m) => (
                <label key={m} className="flex items-center gap-1">
                  <input type="checkbox" checked={picked.includes(m)} onChange={() => setPicked(toggle(picked, m))} />
                  {m}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="text-xs text-slate-600">
            <legend>Tasks</legend>
            <div className="mt-1 flex flex-wrap gap-3">
              {tasks
                .filter((t) => t.datasetKind === kind)
                .map((t) => (
                  <label key={t.name} className="flex items-center gap-1">
                    <input
                      type="checkbox"
                      name="task"
                      value={t.name}
                      checked={taskSel.includes(t.name)}
                      onChange={() => setTaskSel(toggle(taskSel, t.name))}
                    />
                    {t.label}
                  </label>
                ))}
            </div>
          </fieldset>
        </>
      )}
      <div className="grid grid-cols-3 gap-3">
        <label className="block text-xs text-slate-600">
          Repeats
          <input type="number" min={1} max={20} className={input} value={repeats} onChange={(e) => setRepeats(Number(e.target.value))} />
        </label>
        <label className="block text-xs text-slate-600">
          Seed
          <input type="number" min={0} className={input} value={seed} onChange={(e) => setSeed(Number(e.target.value))} />
        </label>
        <label className="block text-xs text-slate-600">
          Retriever
          <select className={input} value={retriever} onChange={(e) => setRetriever(e.target.value)}>
            <option value="bm25">bm25</option>
            <option value="dense">dense</option>
          </select>
        </label>
      </div>
      <label
        className="flex items-center gap-1 text-xs text-slate-600"
        title="The judge endpoint's Batch API (/v1/batches): half the price, answered within 24 hours; answers stay online"
      >
        <input type="checkbox" checked={judgeBatch} onChange={(e) => setJudgeBatch(e.target.checked)} data-testid="judge-batch" />
        Send the judge calls as batches (the judge endpoint must support the Batch API)
      </label>
      {judgeBatch && !judgeBatchApi ? <BatchApiNote /> : null}
      <details className="text-xs text-slate-600">
        <summary>Advanced config (JSON: method options and labels, models per role, HiCUPID splits and judges)</summary>
        <textarea
          className={`${input} font-mono`}
          rows={4}
          value={advanced}
          onChange={(e) => setAdvanced(e.target.value)}
          placeholder='{"methods": [{"name": "rag-utterance", "label": "rag-k15", "options": {"k": 15}}], "hicupid": {"perSplit": 50}}'
          data-testid="advanced"
        />
      </details>
      {error ? (
        <p role="alert" className="rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">
          {error}
        </p>
      ) : null}
      {estimate ? <LimitsLine limits={estimate.limits} /> : null}
      {estimate ? (
        <table className="w-full text-xs" data-testid="estimate">
          <thead className="text-left text-slate-500">
            <tr>
              <th>Method</th>
              <th>Task</th>
              <th>Items</th>
              <th>Assistant</th>
              <th>Simulator</th>
              <th>Judge</th>
              <th>Calls</th>
              <th>Tokens (prompt + completion)</th>
            </tr>
          </thead>
          <tbody>
            {estimate.rows.map((r) => (
              <EstimateRow key={`${r.method}${r.task}`} r={r} />
            ))}
            {/* Building each method's memory (shared by every task; nothing for users already built). */}
            {estimate.builds.map((b) => (
              <tr key={`build${b.method}`} className="border-t border-slate-100" data-testid="estimate-build">
                <td>{b.method}</td>
                <td title={b.note ?? undefined}>
                  memory build{b.calls === null ? " (no estimate)" : b.exact ? "" : " (estimate)"}
                  {b.note ? <span className="block text-[10px] text-slate-500">{b.note}</span> : null}
                </td>
                <td title="users (already built)">
                  {b.users} ({b.usersBuilt} built)
                </td>
                <td>
                  {span(b.calls?.assistant ?? (b.calls ? { min: 0, max: 0 } : null))}
                  {b.calls?.embedding ? ` (+${span(b.calls.embedding)} embedding)` : ""}
                </td>
                <td>—</td>
                <td>—</td>
                <td>{span(b.total)}</td>
                <td>
                  {span(b.promptTokens)} + {span(b.completionTokens)}
                </td>
              </tr>
            ))}
            <EstimateRow r={estimate.total} />
            {estimate.builds.length ? (
              <tr className="border-t border-slate-100 font-medium">
                <td colSpan={6}>total with memory building</td>
                <td>{span(estimate.withBuilds.calls)}</td>
                <td>
                  {span(estimate.withBuilds.promptTokens)} + {span(estimate.withBuilds.completionTokens)}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : null}
      {estimate?.worstCase ? (
        <p className="text-xs text-slate-600" data-testid="estimate-worst-case">
          Worst case, if every reply were invalid: <b>{estimate.worstCase.attempts} paid attempts</b> ({estimate.worstCase.triesPerCall}{" "}
          tries per call × {estimate.worstCase.jobAttempts} job attempts). The run pauses itself long before: when its first{" "}
          {estimate.worstCase.guardProbe} attempts all fail, or half of its last 50 calls fail the same way.
        </p>
      ) : null}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={busy}
          onClick={() => submit(true)}
          className="rounded border border-indigo-600 px-3 py-1.5 text-sm text-indigo-700 disabled:opacity-60"
        >
          Estimate
        </button>
        <button
          type="button"
          disabled={busy || !estimate || estimate.limits.over.length > 0}
          onClick={() => submit(false)}
          className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
          title={!estimate ? "estimate first" : estimate.limits.over.length ? "over a limit: see the estimate" : ""}
        >
          Launch
        </button>
      </div>
    </form>
  );
}

/** "N jobs of max M" (and methods, repeats); what passes a limit is listed with how to raise it. */
function LimitsLine({ limits: l }: { limits: Estimate["limits"] }) {
  const over = l.over.length > 0;
  return (
    <div
      data-testid="estimate-limits"
      className={`rounded px-2 py-1 text-xs ${over ? "bg-rose-50 text-rose-800" : "bg-slate-50 text-slate-700"}`}
    >
      <p>
        <strong>{num(l.jobs)}</strong> jobs of max {num(l.max.maxJobs)} · {num(l.methods)} methods of max {num(l.max.maxMethods)} ·{" "}
        {num(l.repeats)} repeats of max {num(l.max.maxRepeats)}
      </p>
      {over ? (
        <ul className="mt-1 list-disc pl-4" role="alert">
          {l.over.map((o) => (
            <li key={o}>{o}</li>
          ))}
          <li className="list-none">Make the experiment smaller, or ask an admin to raise the limit on Admin → Settings.</li>
        </ul>
      ) : null}
    </div>
  );
}

/** One row of the estimate: a method and task (or the total) with its calls by role and tokens. */
function EstimateRow({ r }: { r: DryRunRow }) {
  return (
    <tr className="border-t border-slate-100">
      <td>{r.method}</td>
      <td>{r.task}</td>
      <td>{r.items}</td>
      <td>{r.calls.assistant}</td>
      <td>{r.calls["user-simulator"]}</td>
      <td>{r.calls.judge}</td>
      <td>{r.calls.total}</td>
      <td>
        {r.promptTokens} + {r.completionTokens}
      </td>
    </tr>
  );
}
