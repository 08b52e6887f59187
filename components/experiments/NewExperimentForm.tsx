"use client";
import { useEffect, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { postJson } from "./api";
import { PresetSettingsTable } from "./PresetSettingsTable";
import { BatchApiNote } from "@/components/llm/BatchApiNote";
import { itemsText } from "@/lib/experiments/estimate-items";

type DatasetOption = { id: number; name: string; kind: string; kindLabel: string };
type TaskOption = { name: string; label: string; datasetKind: string };
type DryRunRow = {
  method: string;
  task: string;
  items: number;
  runs: number;
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
  /** What makes the run not the paper's protocol beyond its config (a bare dialogue simulator). */
  warnings?: string[];
};
const num = (n: number) => n.toLocaleString("en");
const span = (r: Range | null | undefined) => (!r ? "?" : r.min === r.max ? String(r.min) : `${r.min}–${r.max}`);

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

type MethodOption = { name: string; label: string; kinds: string[] };
/** A protocol preset as the server describes it (lib/experiments/presets.ts presetOptions). */
export type PresetOption = {
  id: string;
  label: string;
  description: string;
  datasetKind: string;
  config: Record<string, unknown>;
  settings: Array<{ path: string; value: unknown; source: string }>;
  /** The preset's methods: key (label, else name) and display name. */
  methods: Array<{ key: string; label: string }>;
};
type Choice = { key: string; label: string };
type UserList = { datasetId: number; users: string[]; total: number };

const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
/** The reference among the picked methods: the one chosen, else H2Memory (as in Mem-PAL), else the first (config.ts referenceMethod). */
const referenceOf = (picked: string[], chosen: string) =>
  picked.includes(chosen) ? chosen : picked.includes("h2memory") ? "h2memory" : (picked[0] ?? "");

/**
 * Estimate (dry run) and launch an experiment; the estimate is shown before anything is spent. The form
 * opens on the paper's preset of the chosen data set's kind; the preset's methods, tasks and users can be
 * narrowed with checkboxes, and only what differs from the preset is sent (the server merges it in).
 */
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
  const kindOf = (id: number) => datasets.find((d) => d.id === id)?.kind;
  const presetFor = (kind: string | undefined) => presets.find((p) => p.datasetKind === kind) ?? null;
  const first = presetFor(kindOf(datasets[0]?.id ?? 0));
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? 0);
  const [presetId, setPresetId] = useState(first?.id ?? "");
  const preset = presets.find((p) => p.id === presetId) ?? null;
  const kind = kindOf(datasetId);
  const [advanced, setAdvanced] = useState("");
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>(first ? first.methods.map((m) => m.key) : allMethods.slice(0, 1).map((m) => m.name));
  const [taskSel, setTaskSel] = useState<string[]>(first ? ((first.config.tasks as string[]) ?? []) : []);
  const [reference, setReference] = useState(String(first?.config.reference ?? ""));
  const [someUsers, setSomeUsers] = useState(false);
  const [userSel, setUserSel] = useState<string[]>([]);
  const [userFilter, setUserFilter] = useState("");
  const [userList, setUserList] = useState<UserList | null>(null);
  const [repeats, setRepeats] = useState(Number(first?.config.repeats ?? 1));
  const [seed, setSeed] = useState(Number(first?.config.seed ?? 0));
  const [retriever, setRetriever] = useState(String(first?.config.retriever ?? "bm25"));
  const [judgeBatch, setJudgeBatch] = useState(false);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // What may be picked: the preset's methods and tasks, or (custom) every method and task of the data set's kind.
  const methodOptions: Choice[] = preset
    ? preset.methods
    : allMethods.filter((m) => !kind || m.kinds.includes(kind)).map((m) => ({ key: m.name, label: m.label }));
  const taskOptions: Choice[] = preset
    ? ((preset.config.tasks as string[]) ?? []).map((t) => ({ key: t, label: tasks.find((x) => x.name === t)?.label ?? t }))
    : tasks.filter((t) => t.datasetKind === kind).map((t) => ({ key: t.name, label: t.label }));
  const methodKeys = methodOptions.filter((m) => picked.includes(m.key)).map((m) => m.key);
  const taskKeys = taskOptions.filter((t) => taskSel.includes(t.key)).map((t) => t.key);
  const ref = referenceOf(methodKeys, reference);
  // Display names by key, for the estimate's rows ("a~b" is a pair: "A vs B").
  const names = new Map<string, string>([
    ...allMethods.map((m) => [m.name, m.label] as [string, string]),
    ...presets.flatMap((p) => p.methods.map((m) => [m.key, m.label] as [string, string])),
  ]);
  const nameOf = (key: string) =>
    key
      .split("~")
      .map((k) => names.get(k) ?? k)
      .join(" vs ");

  // The user ids, fetched when "Only these users" is chosen (a data set may have thousands).
  useEffect(() => {
    if (!someUsers || userList?.datasetId === datasetId) return;
    let live = true;
    fetch(`/api/datasets/${datasetId}/users`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`users: HTTP ${r.status}`))))
      .then((u: { users: string[]; total: number }) => live && setUserList({ datasetId, ...u }))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [someUsers, datasetId, userList?.datasetId]);

  const resetTo = (p: PresetOption | null) => {
    setEstimate(null);
    setUserSel([]);
    setSomeUsers(false);
    if (!p) {
      // Custom: the first method, no task and one run (a quick try; more runs are one field away). Seed and
      // retriever are the kind's preset's, as the server starts a run without a preset from it (BM25 only when asked).
      const kp = presetFor(kind);
      setPicked(allMethods.slice(0, 1).map((m) => m.name));
      setTaskSel([]);
      setRepeats(1);
      setSeed(Number(kp?.config.seed ?? 0));
      setRetriever(String(kp?.config.retriever ?? "bm25"));
      return;
    }
    setPicked(p.methods.map((m) => m.key));
    setTaskSel((p.config.tasks as string[]) ?? []);
    setReference(String(p.config.reference ?? ""));
    setRepeats(Number(p.config.repeats ?? 1));
    setSeed(Number(p.config.seed ?? 0));
    setRetriever(String(p.config.retriever ?? "bm25"));
  };
  const choosePreset = (id: string) => {
    setPresetId(id);
    const p = presets.find((x) => x.id === id) ?? null;
    resetTo(p);
    if (p && kind !== p.datasetKind) {
      const ds = datasets.find((d) => d.kind === p.datasetKind);
      if (ds) setDatasetId(ds.id);
    }
  };
  // Another data set of another kind: its kind's preset (a custom form stays custom).
  const chooseDataset = (id: number) => {
    setDatasetId(id);
    setUserSel([]);
    setEstimate(null);
    if (preset && preset.datasetKind !== kindOf(id)) {
      const p = presetFor(kindOf(id));
      setPresetId(p?.id ?? "");
      resetTo(p);
    }
  };

  // The advanced JSON (method options and labels, models per role, hicupid splits and judges, ...) goes over the fields.
  const extra = (): Record<string, unknown> => {
    if (!advanced.trim()) return {};
    const v = JSON.parse(advanced);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("advanced config: a JSON object is expected");
    return v;
  };
  // With a preset, only what differs from it is sent; the server merges it into the preset.
  const presetConfig = (p: PresetOption) => {
    const changed: Record<string, unknown> = {};
    if (methodKeys.length !== p.methods.length) changed.methods = methodKeys.map((k) => ({ name: k }));
    if (taskKeys.length !== ((p.config.tasks as string[]) ?? []).length) changed.tasks = taskKeys;
    if (ref !== p.config.reference) changed.reference = ref;
    if (repeats !== Number(p.config.repeats ?? 1)) changed.repeats = repeats;
    if (seed !== Number(p.config.seed ?? 0)) changed.seed = seed;
    if (retriever !== String(p.config.retriever ?? "bm25")) changed.retriever = retriever;
    if (someUsers) changed.users = userSel;
    return { preset: p.id, ...changed, ...(judgeBatch ? { judgeBatch } : {}), ...extra() };
  };
  const config = () =>
    preset
      ? presetConfig(preset)
      : {
          methods: methodKeys.map((n) => ({ name: n })),
          tasks: taskKeys,
          users: someUsers ? userSel : "all",
          reference: ref || undefined,
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
  const shownUsers = (userList?.datasetId === datasetId ? userList.users : []).filter((u) => u.includes(userFilter.trim()));

  return (
    <form
      className="mb-6 space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="New experiment"
      onSubmit={(e) => e.preventDefault()}
    >
      <h2 className="text-sm font-semibold">New experiment</h2>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <label className="block text-xs text-slate-600">
          Data set
          <select className={input} value={datasetId} onChange={(e) => chooseDataset(Number(e.target.value))} data-testid="dataset">
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
        {presets.length ? (
          <label className="block text-xs text-slate-600">
            Protocol
            <select className={input} value={presetId} onChange={(e) => choosePreset(e.target.value)} data-testid="preset">
              {presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
              <option value="">Custom (choose methods and tasks)</option>
            </select>
          </label>
        ) : null}
        <label className="block text-xs text-slate-600">
          Name
          <input className={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="(automatic)" />
        </label>
      </div>
      {!preset && presetFor(kind) ? (
        <p className="text-xs text-slate-600" data-testid="custom-base">
          A custom run starts from the {presetFor(kind)!.label} protocol: every setting you leave (method options, temperatures) is the
          preset&apos;s, and what you change is listed on the experiment page as a change from it.
        </p>
      ) : null}
      {preset ? (
        <details className="rounded border border-indigo-100 bg-indigo-50/40 p-2 text-xs text-slate-700" data-testid="preset-settings">
          {/* No link inside the summary: a control inside a control (axe nested-interactive). */}
          <summary>
            {preset.description} Every setting and where it comes from (what you change below is recorded as a change from the preset):
          </summary>
          <PresetSettingsTable settings={preset.settings} className="mt-1 w-full" />
          <p className="mt-1">
            <Link className="text-indigo-700 underline" href="/experiments/protocol">
              Protocol notes
            </Link>
          </p>
        </details>
      ) : null}
      <fieldset className="text-xs text-slate-600" data-testid="method-choices">
        <legend>Methods{preset ? " (the preset's; untick to leave one out)" : ""}</legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {methodOptions.map((m) => (
            <label key={m.key} className="flex items-center gap-1" title={m.key}>
              <input type="checkbox" checked={picked.includes(m.key)} onChange={() => setPicked(toggle(picked, m.key))} />
              {m.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <fieldset className="text-xs text-slate-600 md:col-span-2" data-testid="task-choices">
          <legend>Tasks</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {taskOptions.map((t) => (
              <label key={t.key} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="task"
                  value={t.key}
                  checked={taskSel.includes(t.key)}
                  onChange={() => setTaskSel(toggle(taskSel, t.key))}
                />
                {t.label}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-xs text-slate-600">
          Reference (the others are compared with it)
          <select className={input} value={ref} onChange={(e) => setReference(e.target.value)} data-testid="reference">
            {methodKeys.map((k) => (
              <option key={k} value={k}>
                {nameOf(k)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="text-xs text-slate-600" data-testid="user-choices">
        <legend>Users</legend>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-1">
            <input type="radio" name="users-scope" checked={!someUsers} onChange={() => setSomeUsers(false)} />
            All users{userList?.datasetId === datasetId ? ` (${userList.total})` : ""}
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="users-scope" checked={someUsers} onChange={() => setSomeUsers(true)} />
            Only these users
          </label>
          {someUsers ? (
            <>
              <input
                className="rounded border border-slate-300 px-2 py-0.5 text-xs"
                value={userFilter}
                onChange={(e) => setUserFilter(e.target.value)}
                placeholder="filter ids"
                aria-label="Filter user ids"
              />
              <span>{userSel.length} chosen</span>
            </>
          ) : null}
        </div>
        {someUsers ? (
          userList?.datasetId === datasetId ? (
            <div className="mt-1 flex max-h-28 flex-wrap gap-x-3 gap-y-1 overflow-y-auto rounded border border-slate-200 p-2">
              {shownUsers.map((u) => (
                <label key={u} className="flex items-center gap-1 font-mono">
                  <input type="checkbox" checked={userSel.includes(u)} onChange={() => setUserSel(toggle(userSel, u))} />
                  {u}
                </label>
              ))}
              {userList.users.length < userList.total ? (
                <span className="text-slate-500">
                  the first {userList.users.length} of {userList.total}; the advanced JSON takes any ids
                </span>
              ) : null}
            </div>
          ) : (
            <p className="mt-1 text-slate-500">loading the user ids…</p>
          )
        ) : null}
      </fieldset>
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
      {estimate?.warnings?.length ? (
        <ul className="list-disc pl-5 text-xs text-amber-800" data-testid="estimate-warnings">
          {estimate.warnings.map((w, i) => (
            <li key={i}>Warning: {w}</li>
          ))}
        </ul>
      ) : null}
      {estimate ? (
        <table className="w-full text-xs" data-testid="estimate">
          <thead className="text-left text-slate-500">
            <tr>
              <th>Method</th>
              <th>Task</th>
              <th title="items of one run × the runs (repeats)">Items</th>
              <th>Assistant</th>
              <th>Simulator</th>
              <th>Judge</th>
              <th>Calls</th>
              <th>Tokens (prompt + completion)</th>
            </tr>
          </thead>
          <tbody>
            {estimate.rows.map((r) => (
              <EstimateRow key={`${r.method}${r.task}`} r={r} name={nameOf(r.method)} />
            ))}
            {/* Building each method's memory (shared by every task; nothing for users already built). */}
            {estimate.builds.map((b) => (
              <tr key={`build${b.method}`} className="border-t border-slate-100" data-testid="estimate-build">
                <td>{nameOf(b.method)}</td>
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
function EstimateRow({ r, name }: { r: DryRunRow; name?: string }) {
  return (
    <tr className="border-t border-slate-100">
      <td>{name ?? r.method}</td>
      <td>{r.task}</td>
      <td>{itemsText(r.items, r.runs)}</td>
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
