/**
 * One topic of an experiment as a researcher reads it (Mem-PAL Figure 4): the user's information as
 * cards, the input as labelled text, and each method's output — a dialogue turn by turn with the memory
 * the method retrieved for each assistant turn and the model call that produced it, or a single answer
 * with its reference and metric values — plus the pairwise verdicts between the shown methods.
 * Everything is already readable text here, so no page has to print JSON.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, jobScores, llmCalls } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { getTask } from "@/lib/tasks/registry";
import { readableFields, type Field, type InfoCard } from "@/lib/tasks/readable";
import { ACTION_LABELS, type ActionCode } from "@/lib/datasets/palset/actions";
import { PAIR_SEP } from "./create";
import { getExperimentRow } from "./control";
import { methodNames } from "./method-choices";

export type MemoryEntry = { kind: string; key: string; text: string; score: number | null };
export type CallLink = { purpose: string; cacheKey: string | null; cacheHit: boolean };
export type Turn = {
  /** 1-based turn of the dialogue (a user line and the assistant's reply share it). */
  turn: number;
  role: "user" | "assistant";
  text: string;
  /** The action the template asked of this speaker in this turn. */
  action: string | null;
  /** Assistant turns: the memory the method retrieved for this reply, and the call that wrote it. */
  retrieved: MemoryEntry[];
  call: CallLink | null;
};
export type MethodOutput = {
  jobId: number;
  method: string;
  replicate: number;
  status: string;
  error: string | null;
  /** Dialogue turns, or null for a single answer. */
  turns: Turn[] | null;
  /** A single answer's fields (requirement, solution, answer, ...). */
  answer: Field[];
  /** A single answer's retrieved memory (by step when the task has several, e.g. generation and selection). */
  retrieved: Array<{ step: string; entries: MemoryEntry[] }>;
  calls: CallLink[];
  scores: Array<{ scorer: string; values: Array<{ metric: string; value: number | null }> }>;
};
export type Judgment = { order: string; scoreA: number; scoreB: number; analysis: Field[] };
export type PairVerdict = {
  jobId: number;
  a: string;
  b: string;
  replicate: number;
  status: string;
  error: string | null;
  dimensions: Array<{ dimension: string; outcome: string; meanA: number; meanB: number; judgments: Judgment[] }>;
};
export type ItemView = {
  experimentId: number;
  experimentName: string;
  task: string;
  itemKey: string;
  cards: InfoCard[];
  reference: Field[];
  input: Field[];
  /** Every method that has an output on this item (for the compare view's picker). */
  methods: string[];
  /** Display names by method key (method-choices.ts methodNames). */
  methodNames: Record<string, string>;
  outputs: MethodOutput[];
  pairs: PairVerdict[];
};

const actionLabel = (code: unknown) => (typeof code === "string" && code in ACTION_LABELS ? ACTION_LABELS[code as ActionCode].en : null);

function memoryEntries(raw: unknown): MemoryEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((e, i) => {
    const o = (e ?? {}) as Record<string, unknown>;
    const text =
      typeof o.text === "string"
        ? o.text
        : readableFields(e)
            .map((f) => `${f.label}: ${f.text}`)
            .join("\n");
    return {
      kind: typeof o.kind === "string" ? o.kind : "entry",
      key: typeof o.key === "string" || typeof o.key === "number" ? String(o.key) : String(i + 1),
      text,
      score: typeof o.score === "number" ? o.score : null,
    };
  });
}

/** A single answer's retrieved memory: a list, or steps of lists ({generation: [...], selection: [...]}). */
function retrievedSteps(raw: unknown): Array<{ step: string; entries: MemoryEntry[] }> {
  if (Array.isArray(raw)) return raw.length ? [{ step: "", entries: memoryEntries(raw) }] : [];
  if (raw && typeof raw === "object")
    return Object.entries(raw as Record<string, unknown>)
      .map(([step, v]) => ({ step, entries: memoryEntries(v) }))
      .filter((s) => s.entries.length);
  return [];
}

type Utterance = { role: string; content: string };
type TemplateTurn = { user?: unknown; assistant?: unknown };

function dialogueTurns(output: unknown, retrieved: unknown, calls: CallLink[]): Turn[] | null {
  const o = output as { dialogue?: Utterance[]; template?: { turns?: TemplateTurn[] } } | null;
  if (!o || !Array.isArray(o.dialogue)) return null;
  const perTurn = new Map<number, MemoryEntry[]>();
  if (Array.isArray(retrieved))
    for (const r of retrieved as Array<{ turn?: number; entries?: unknown }>)
      if (typeof r?.turn === "number") perTurn.set(r.turn, memoryEntries(r.entries));
  // The method's answering calls in order: the n-th wrote the n-th assistant turn (retrieval-query steps are other purposes).
  const answering = calls.filter((c) => c.purpose.endsWith(".respond.dialogue"));
  const template = o.template?.turns ?? [];
  let assistantSeen = 0;
  let userSeen = 0;
  return o.dialogue.map((u) => {
    if (u.role === "assistant") {
      const turn = ++assistantSeen;
      return {
        turn,
        role: "assistant" as const,
        text: u.content,
        action: actionLabel(template[turn - 1]?.assistant),
        retrieved: perTurn.get(turn) ?? [],
        call: answering[turn - 1] ?? null,
      };
    }
    const turn = ++userSeen;
    return { turn, role: "user" as const, text: u.content, action: actionLabel(template[turn - 1]?.user), retrieved: [], call: null };
  });
}

/** A job's input as labelled text; a dialogue template as one line per turn. */
function inputFields(input: unknown): Field[] {
  const o = input as { template?: { source?: string; seed?: number; turns?: TemplateTurn[] } } | null;
  if (o?.template && Array.isArray(o.template.turns)) {
    const t = o.template;
    const lines = t.turns!.map(
      (x, i) => `Turn ${i + 1}: user ${actionLabel(x.user) ?? x.user} → assistant ${actionLabel(x.assistant) ?? x.assistant}`,
    );
    return [
      { label: "Dialogue template", text: lines.join("\n") },
      { label: "Template source", text: t.source === "generated" ? `generated (seed ${t.seed})` : (t.source ?? "imported") },
    ];
  }
  return readableFields(input);
}

function latestScoresOf(db: Db, jobIds: number[]) {
  type Latest = { values: Record<string, number | null>; detail: unknown };
  const out = new Map<number, Map<string, Latest>>();
  if (!jobIds.length) return out;
  const rows = db.select().from(jobScores).where(inArray(jobScores.jobId, jobIds)).orderBy(asc(jobScores.version)).all();
  for (const r of rows) {
    const m = out.get(r.jobId) ?? new Map<string, Latest>();
    m.set(r.scorer, { values: r.values, detail: r.detail });
    out.set(r.jobId, m);
  }
  return out;
}

type DimDetail = {
  outcome: string;
  meanA: number;
  meanB: number;
  judgments: Array<{ order: string; scoreFirst: number; scoreSecond: number; analysis: unknown }>;
};

/** A judge's analysis with "assistant-1/2" renamed to the methods they were in that order. */
function analysisFields(analysis: unknown, order: string, a: string, b: string): Field[] {
  const [first, second] = order === "AB" ? [a, b] : [b, a];
  return readableFields(analysis).map((f) => ({
    label: f.label.replace(/^Assistant 1/, first).replace(/^Assistant 2/, second),
    text: f.text,
  }));
}

function pairVerdict(
  job: { id: number; method: string; replicate: number; status: string; error: string | null },
  detail: unknown,
): PairVerdict {
  const [a, b] = job.method.split(PAIR_SEP);
  const d = (detail ?? {}) as Record<string, DimDetail>;
  return {
    jobId: job.id,
    a,
    b,
    replicate: job.replicate,
    status: job.status,
    error: job.error,
    dimensions: Object.entries(d).map(([dimension, x]) => ({
      dimension,
      outcome: x.outcome,
      meanA: x.meanA,
      meanB: x.meanB,
      judgments: (x.judgments ?? []).map((j) => ({
        order: j.order,
        scoreA: j.order === "AB" ? j.scoreFirst : j.scoreSecond,
        scoreB: j.order === "AB" ? j.scoreSecond : j.scoreFirst,
        analysis: analysisFields(j.analysis, j.order, a, b),
      })),
    })),
  };
}

/**
 * The item view of one topic. `methods` limits and orders the outputs (default: all); `replicate` picks
 * one run (default: the first run that has the item). Pairwise verdicts are those between shown methods.
 */
export function itemView(
  db: Db,
  experimentId: number,
  task: string,
  itemKey: string,
  opts: { methods?: string[]; replicate?: number } = {},
): ItemView {
  const e = getExperimentRow(db, experimentId);
  const rows = db
    .select()
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.task, task), eq(jobs.itemKey, itemKey)))
    .orderBy(asc(jobs.phase), asc(jobs.replicate), asc(jobs.method))
    .all();
  if (!rows.length) throw new NotFoundError(`experiment ${experimentId} has no item ${task} · ${itemKey}`);
  const replicate = opts.replicate ?? rows[0].replicate;
  const inRun = rows.filter((r) => r.replicate === replicate);
  const singles = inRun.filter((r) => !r.method.includes(PAIR_SEP));
  // The config's order (the reference first), as the results tables list them; others after, by name.
  const configMethods = ((e.config as { methods?: Array<{ name?: string; label?: string }> }).methods ?? []).map((m) => ({
    name: m.name ?? "",
    label: m.label,
  }));
  const order = configMethods.map((m) => m.label ?? m.name);
  const rank = (m: string) => (order.includes(m) ? order.indexOf(m) : order.length);
  singles.sort((x, y) => rank(x.method) - rank(y.method) || x.method.localeCompare(y.method));
  const methods = singles.map((r) => r.method);
  const wanted = opts.methods?.length ? opts.methods.filter((m) => methods.includes(m)) : methods;
  const shown = wanted.map((m) => singles.find((r) => r.method === m)!);
  const pairRows = inRun.filter((r) => {
    if (!r.method.includes(PAIR_SEP)) return false;
    const [a, b] = r.method.split(PAIR_SEP);
    return wanted.includes(a) && wanted.includes(b);
  });
  const ids = [...shown, ...pairRows].map((r) => r.id);
  const scores = latestScoresOf(db, ids);
  const callRows = ids.length
    ? db
        .select({ jobId: llmCalls.jobId, purpose: llmCalls.purpose, cacheKey: llmCalls.cacheKey, cacheHit: llmCalls.cacheHit })
        .from(llmCalls)
        .where(and(inArray(llmCalls.jobId, ids), eq(llmCalls.status, "ok")))
        .orderBy(asc(llmCalls.id))
        .all()
    : [];
  const callsOf = (jobId: number) =>
    callRows.filter((c) => c.jobId === jobId).map(({ purpose, cacheKey, cacheHit }) => ({ purpose, cacheKey, cacheHit }));
  const t = getTask(task);
  const presented = t.present
    ? t.present(db, e.datasetId, itemKey)
    : {
        cards: [{ title: "Item", fields: (t.describe?.(db, e.datasetId, itemKey) ?? []).map((x) => ({ label: x.label, text: x.text })) }],
        reference: [],
      };
  const outputs: MethodOutput[] = shown.map((r) => {
    const calls = callsOf(r.id);
    const turns = dialogueTurns(r.output, r.retrieved, calls);
    return {
      jobId: r.id,
      method: r.method,
      replicate: r.replicate,
      status: r.status,
      error: r.error,
      turns,
      answer: turns ? [] : readableFields(r.output),
      retrieved: turns ? [] : retrievedSteps(r.retrieved),
      calls,
      scores: [...(scores.get(r.id)?.entries() ?? [])].map(([scorer, s]) => ({
        scorer,
        values: Object.entries(s.values).map(([metric, value]) => ({ metric, value })),
      })),
    };
  });
  const firstInput = shown.find((r) => r.input !== null && r.input !== undefined)?.input;
  return {
    experimentId,
    experimentName: e.name,
    task,
    itemKey,
    cards: presented.cards,
    reference: presented.reference,
    input: inputFields(firstInput),
    methods,
    methodNames: methodNames(configMethods),
    outputs,
    pairs: pairRows.map((r) => pairVerdict(r, scores.get(r.id)?.get("faireval")?.detail)),
  };
}
