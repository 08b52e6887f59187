"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { systemsInJsonl, systemsNamedIn } from "@/lib/annotation/blinding";

type KindOption = {
  kind: string;
  label: string;
  description: string;
  sources: string[];
  example: string | null;
  guidelines: string;
  /** The neutral title annotators see when the campaign gives none. */
  annotatorTitle: string;
  /** The kind's generic side names ("model", "reference"): words, not systems. */
  sideNames: string[];
  tieRule: string;
};
type Props = {
  kinds: KindOption[];
  datasets: Array<{ id: number; name: string }>;
  users: Array<{ id: number; email: string; name: string | null; role: string }>;
  paperSample: { users: number; sessionsPerUser: number; seed: number };
  /** Experiments with finished dialogue / hicupid / locomo / longmemeval jobs, and the methods that finished them. */
  experiments: Array<{ id: number; name: string; tasks: Record<string, string[]> }>;
  /** Display names of the registry's methods by id (a labelled method's key is its own name). */
  methodLabels?: Record<string, string>;
};

/** The experiment tasks whose outputs a kind's items are made from. */
const EXPERIMENT_TASKS: Record<string, string[]> = {
  "pairwise-dialogue": ["dialogue"],
  "hicupid-ab": ["hicupid"],
  "answer-correctness": ["locomo", "longmemeval"],
};

const LEGENDS: Record<string, string> = {
  dialogue: "Dialogues of two methods on the same topics",
  hicupid: "A method's answers against the personalized reference",
};

/** The methods that finished any of the tasks in an experiment. */
const methodsOf = (e: { tasks: Record<string, string[]> }, tasks: string[]) => [...new Set(tasks.flatMap((t) => e.tasks[t] ?? []))];

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

/** Posts the campaign as a multipart form to /api/campaigns (uploads can be large) and opens it. */
export function CampaignForm({ kinds, datasets, users, paperSample, experiments, methodLabels = {} }: Props) {
  const router = useRouter();
  const [kind, setKind] = useState(kinds[0].kind);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Nobody is ticked by default: an annotator gets work only when someone chose them.
  const [chosen, setChosen] = useState<number[]>([]);
  const [perItem, setPerItem] = useState<Record<string, number>>({});
  const k = perItem[kind] ?? (kind === "session-quality" ? 3 : 2);
  const [name, setName] = useState("");
  const [title, setTitle] = useState("");
  const [showNames, setShowNames] = useState(false);
  const [guidelines, setGuidelines] = useState<Record<string, string>>({});
  // Fixed: dealt out to the chosen annotators; link: served to participants who join from a link.
  const [link, setLink] = useState(false);
  const kExceeds = !link && chosen.length > 0 && k > chosen.length;
  const def = kinds.find((k) => k.kind === kind)!;
  const tasks = EXPERIMENT_TASKS[kind] ?? [];
  const task = tasks[0];
  const usable = experiments.filter((e) => methodsOf(e, tasks).length >= (task === "dialogue" ? 2 : 1));
  // Offered only when an experiment has outputs this kind can use.
  const canUseExperiment = def.sources.includes("experiment") && usable.length > 0;
  const [fromExperiment, setFromExperiment] = useState(false);
  const source = fromExperiment && canUseExperiment ? "experiment" : def.sources[0];
  const [experimentId, setExperimentId] = useState<number | null>(null);
  const exp = usable.find((e) => e.id === experimentId) ?? usable[0];
  const methods = exp ? methodsOf(exp, tasks) : [];
  const [methodA, setMethodA] = useState<string | null>(null);
  const [methodB, setMethodB] = useState<string | null>(null);
  const [fileSystems, setFileSystems] = useState<string[]>([]);
  const sysA = methodA && methods.includes(methodA) ? methodA : methods[0];
  const sysB = methodB && methods.includes(methodB) ? methodB : methods[1];
  const systems =
    source === "experiment" ? (task === "dialogue" ? [sysA, sysB] : [sysA]).filter(Boolean) : source === "upload" ? fileSystems : [];
  // Annotators see their title and the guidelines (never the name): naming a system there unblinds the campaign,
  // which the server refuses unless the override below is ticked (then the agreement page and exports say so).
  const generic = new Set(def.sideNames.map((n) => n.toLowerCase()));
  const named = systemsNamedIn(
    systems.filter((s) => !generic.has(s.toLowerCase())),
    [title.trim() || def.annotatorTitle, guidelines[kind] ?? def.guidelines],
  );

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(e.currentTarget);
    form.set("source", source);
    const r = await fetch("/api/campaigns", { method: "POST", body: form });
    const body = await r.json().catch(() => ({}));
    setPending(false);
    if (!r.ok) return setError(body.error ?? `HTTP ${r.status}`);
    router.push(`/campaigns/${body.id}`);
  }

  return (
    <form
      onSubmit={onSubmit}
      className="grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-4 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="New campaign"
    >
      <div className="grid grid-cols-2 gap-3">
        <label className="block text-xs text-slate-600">
          Name (researchers only)
          <input name="name" required value={name} onChange={(e) => setName(e.target.value)} className={input} />
          <span className="mt-1 block text-slate-500">Annotators never see it: name the systems here if you like.</span>
        </label>
        <label className="block text-xs text-slate-600">
          Title shown to annotators
          <input
            name="annotatorTitle"
            value={title}
            placeholder={def.annotatorTitle}
            onChange={(e) => setTitle(e.target.value)}
            className={input}
          />
          <span className="mt-1 block text-slate-500">Empty: “{def.annotatorTitle}”.</span>
        </label>
      </div>
      <label className="block text-xs text-slate-600">
        Kind
        <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)} className={input}>
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        <span className="mt-1 block text-slate-500">{def.description}</span>
      </label>
      {canUseExperiment ? (
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">Items from</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="itemsFrom" checked={!fromExperiment} onChange={() => setFromExperiment(false)} /> Uploaded file
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="itemsFrom" checked={fromExperiment} onChange={() => setFromExperiment(true)} /> PAL Studio experiment
          </label>
        </fieldset>
      ) : null}
      {source === "experiment" && exp ? (
        <fieldset className="grid grid-cols-4 gap-3 rounded border border-slate-200 p-3">
          <legend className="px-1 text-xs font-semibold">
            {LEGENDS[task] ?? "A method's answers to the benchmark's questions, each beside its reference"}
          </legend>
          <label className="col-span-2 block text-xs text-slate-600">
            Experiment
            <select name="experimentId" value={exp.id} onChange={(e) => setExperimentId(Number(e.target.value))} className={input}>
              {usable.map((e) => (
                <option key={e.id} value={e.id}>
                  #{e.id} {e.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-xs text-slate-600">
            Method (side A)
            <select name="methodA" key={`a-${exp.id}`} value={sysA} onChange={(e) => setMethodA(e.target.value)} className={input}>
              {methods.map((m) => (
                <option key={m} value={m}>
                  {methodLabels[m] ?? m}
                </option>
              ))}
            </select>
          </label>
          {task === "dialogue" ? (
            <label className="block text-xs text-slate-600">
              Method (side B)
              <select name="methodB" key={`b-${exp.id}`} value={sysB} onChange={(e) => setMethodB(e.target.value)} className={input}>
                {methods.map((m) => (
                  <option key={m} value={m}>
                    {methodLabels[m] ?? m}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label className="block text-xs text-slate-600">
            Run
            <input name="run" type="number" min={1} defaultValue={1} className={input} />
          </label>
        </fieldset>
      ) : source === "palset-session" ? (
        <fieldset className="grid grid-cols-4 gap-3 rounded border border-slate-200 p-3">
          <legend className="px-1 text-xs font-semibold">
            Sessions to sample (the paper: {paperSample.users} users × {paperSample.sessionsPerUser} sessions)
          </legend>
          <label className="col-span-4 block text-xs text-slate-600">
            PAL-Set data set
            <select name="datasetId" className={input}>
              {datasets.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-xs text-slate-600">
            Users
            <input name="users" type="number" min={1} defaultValue={paperSample.users} className={input} />
          </label>
          <label className="block text-xs text-slate-600">
            Sessions per user
            <input name="sessionsPerUser" type="number" min={1} defaultValue={paperSample.sessionsPerUser} className={input} />
          </label>
          <label className="block text-xs text-slate-600">
            Sampling seed
            <input name="sampleSeed" type="number" defaultValue={paperSample.seed} className={input} />
          </label>
        </fieldset>
      ) : (
        <fieldset className="min-w-0 rounded border border-slate-200 p-3">
          <legend className="px-1 text-xs font-semibold">Items file (JSONL, one item per line)</legend>
          <input
            name="file"
            type="file"
            accept=".jsonl,.json,.txt"
            required
            aria-label="Items file"
            className="text-sm"
            onChange={(e) => {
              const f = e.target.files?.[0];
              setFileSystems([]);
              if (f) void f.text().then((t) => setFileSystems(systemsInJsonl(t)));
            }}
          />
          {def.example ? (
            <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-[11px] text-slate-600">{def.example}</pre>
          ) : null}
        </fieldset>
      )}
      <fieldset className="rounded border border-slate-200 p-3">
        <legend className="px-1 text-xs font-semibold">Who labels</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="assignment" value="fixed" checked={!link} onChange={() => setLink(false)} /> Chosen annotators
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="assignment" value="link" checked={link} onChange={() => setLink(true)} /> Anyone with a participant
            link (crowd, e.g. Prolific)
          </label>
        </div>
      </fieldset>
      {link ? <CrowdFields /> : null}
      <fieldset className={`rounded border border-slate-200 p-3 ${link ? "hidden" : ""}`} disabled={link}>
        <legend className="px-1 text-xs font-semibold">Annotators</legend>
        <div className="grid grid-cols-2 gap-1">
          {users.map((u) => (
            <label key={u.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="annotators"
                value={u.id}
                checked={chosen.includes(u.id)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, u.id] : c.filter((x) => x !== u.id)))}
              />
              {u.email} <span className="text-xs text-slate-500">{u.role}</span>
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-500" data-testid="annotators-chosen">
          {chosen.length === 0 ? "Tick the people who will annotate." : `${chosen.length} chosen.`}
        </p>
      </fieldset>
      <div className="grid grid-cols-3 gap-3">
        <label className="block text-xs text-slate-600">
          Annotations per item (k)
          <input
            name="perItem"
            type="number"
            min={1}
            max={link ? 1000 : Math.max(1, chosen.length)}
            value={k}
            onChange={(e) => setPerItem({ ...perItem, [kind]: Number(e.target.value) })}
            className={input}
            aria-invalid={kExceeds}
          />
          {kExceeds ? (
            <span role="alert" className="mt-1 block text-rose-700">
              k = {k} needs at least {k} annotators; {chosen.length} chosen.
            </span>
          ) : null}
        </label>
        <label className="block text-xs text-slate-600">
          Split votes
          <select name="tieRule" defaultValue={def.tieRule} key={kind} className={input}>
            {def.tieRule === "tie" ? <option value="tie">become a tie</option> : null}
            <option value="first">first category wins</option>
            <option value="adjudicate">wait for adjudication</option>
            <option value="none">stay unresolved</option>
          </select>
        </label>
        <label className="block text-xs text-slate-600">
          Assignment seed
          <input name="seed" type="number" defaultValue={1} className={input} />
        </label>
      </div>
      <label className="block text-xs text-slate-600">
        Guidelines (Markdown)
        <textarea
          name="guidelines"
          rows={8}
          value={guidelines[kind] ?? def.guidelines}
          onChange={(e) => setGuidelines({ ...guidelines, [kind]: e.target.value })}
          className={`${input} font-mono`}
        />
      </label>
      {named.length ? (
        <div role="status" className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="names-system-warning">
          <p>
            The {named.map((n) => `${n.where} mentions “${n.system}”`).join(" and the ")}: annotators read it, so they would know which
            system is which. Reword it before creating the campaign.
          </p>
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" name="showSystemNames" checked={showNames} onChange={(e) => setShowNames(e.target.checked)} />
            Show these names to annotators anyway (the agreement page and exports will say the campaign was not blind)
          </label>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="rounded bg-rose-50 px-2 py-1 text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <button
        disabled={pending || kExceeds || (!link && chosen.length === 0) || (named.length > 0 && !showNames)}
        className="w-fit rounded bg-indigo-600 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? "Creating…" : "Create campaign"}
      </button>
    </form>
  );
}

/** A link campaign's settings, the same as `pal campaign create --link`'s; empty fields keep their defaults. */
function CrowdFields() {
  const num = (name: string, label: string, placeholder: string, step = "1") => (
    <label className="block text-xs text-slate-600">
      {label}
      <input name={name} type="number" step={step} min={0} placeholder={placeholder} className={input} />
    </label>
  );
  return (
    <fieldset className="grid gap-3 rounded border border-indigo-200 bg-indigo-50/40 p-3" data-testid="crowd-fields">
      <legend className="px-1 text-xs font-semibold">Participant link</legend>
      <p className="text-xs text-slate-600">
        Items are served as people work: the least-labelled first (or the most-disagreement first, below), k labels per item, never one item
        twice to a person. Attention checks are made from your items (an identical pair, a broken reply) and look like any item. The link is
        shown on the campaign page once it is created.
      </p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {num("holdSeconds", "Hold on a served item (s)", "600")}
        {num("quota", "Items per participant", "no limit")}
        {num("maxParticipants", "Most participants", "no cap")}
        {num("goldRate", "Share of gold items (0–1)", "0.1", "0.01")}
        {num("minGoldAccuracy", "Screen out below gold accuracy", "0.5", "0.01")}
        {num("minSeconds", "Flag answers faster than (s)", "3", "0.1")}
        {num("attentionRate", "Share of attention checks (0–0.5)", "0 (none)", "0.01")}
        {num("maxAttentionFails", "Screen out above failed checks", "1")}
        <label className="block text-xs text-slate-600">
          Serve next
          <select name="order" defaultValue="least-labelled" className={input}>
            <option value="least-labelled">least-labelled item first</option>
            <option value="most-disagreement">most-disagreement item first</option>
          </select>
        </label>
        <label className="block text-xs text-slate-600">
          Completion code
          <input name="completionCode" placeholder="from Prolific" className={input} />
        </label>
        <label className="block text-xs text-slate-600">
          Screen-out code
          <input name="screenoutCode" placeholder="from Prolific" className={input} />
        </label>
      </div>
      <label className="block text-xs text-slate-600">
        Consent statement (Markdown; empty: no consent step)
        <textarea name="consent" rows={3} className={input} />
      </label>
      <label className="block text-xs text-slate-600">
        Gold items / attention checks (JSONL: the upload format plus {'"gold": {"dimension": "value"}'} per line)
        <textarea name="gold" rows={3} className={`${input} font-mono`} />
      </label>
    </fieldset>
  );
}
