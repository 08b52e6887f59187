/**
 * Mem-PAL Figure 4 for a paper: one topic answered by the chosen methods, each reply with its turn action
 * and the memory it used, beside a compact profile; the researcher picks the turns and the fields. This
 * module turns an item view (lib/experiments/item-view.ts) and the item's highlights into a small,
 * renderer-neutral model; html.ts and svg.ts draw it.
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { humanize, type Field } from "@/lib/tasks/readable";
import { itemView, type MemoryEntry, type MethodOutput } from "../item-view";
import type { MarkColour } from "@/db/schema";
import { listMarks, MARK_MEANINGS } from "../marks";
import { blockId, markSegments } from "../mark-segments";
import { metricLabel } from "../metric-label";
import { ASSISTANTS } from "@/lib/assistants/registry";

/** A method as the paper names it ("H2Memory"), or as the experiment named it. */
const methodName = (m: string) => ASSISTANTS.find((a) => a.id === m)?.label ?? m;

export const FIGURE_FIELDS = [
  "profile",
  "personality",
  "situation",
  "query",
  "memory",
  "actions",
  "scores",
  "highlights",
  "references",
] as const;
export type FigureField = (typeof FIGURE_FIELDS)[number];
export const FIELD_LABELS: Record<FigureField, string> = {
  profile: "Profile (compact)",
  personality: "Personality",
  situation: "Situation",
  query: "User query",
  memory: "Memory used per reply",
  actions: "Turn actions",
  scores: "Scores",
  highlights: "Highlights and notes",
  references: "References",
};
/** What a new figure shows: Figure 4's columns, without the references and scores a reader does not need. */
export const DEFAULT_FIELDS: FigureField[] = ["profile", "personality", "situation", "query", "memory", "actions", "highlights"];

/** One column of a two-column paper (about 3.3 in) or the text width (about 7 in), at 96 px an inch. */
export const WIDTHS = { column: 320, full: 672 } as const;
export type FigureWidth = keyof typeof WIDTHS;

export type FigureOptions = {
  task: string;
  itemKey: string;
  methods: string[];
  replicate?: number;
  /** 1-based turns to show; empty: all. */
  turns: number[];
  fields: FigureField[];
  width: FigureWidth;
};

const MAX_METHODS = 4;
const list = (v: string | null) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const optionsSchema = z.object({
  task: z.string().min(1, "choose the topic's task").max(100),
  item: z.string().min(1, "choose the topic").max(500),
  m: z.array(z.string().max(200)).max(MAX_METHODS, `at most ${MAX_METHODS} methods side by side`),
  run: z
    .string()
    .regex(/^\d{1,4}$/, "expected a run number")
    .transform(Number)
    .optional(),
  turns: z
    .array(
      z
        .string()
        .regex(/^\d{1,3}$/, "expected turn numbers such as 1,2,5")
        .transform(Number),
    )
    .max(100),
  fields: z.array(z.enum(FIGURE_FIELDS, { error: `expected some of ${FIGURE_FIELDS.join(", ")}` })),
  width: z.enum(["column", "full"], { error: "expected column or full" }).default("full"),
});

/** The figure's options from a query string (the figure page and the export use the same parameters). */
export function figureOptions(sp: URLSearchParams): FigureOptions {
  const r = optionsSchema.safeParse({
    task: sp.get("task") ?? "",
    item: sp.get("item") ?? "",
    m: sp.getAll("m").flatMap((x) => list(x)),
    run: sp.get("run") ?? undefined,
    turns: list(sp.get("turns")),
    fields: sp.has("fields") ? list(sp.get("fields")) : DEFAULT_FIELDS,
    width: sp.get("width") || undefined,
  });
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`${String(i.path[0] ?? "figure")}: ${i.message}`);
  }
  const o = r.data;
  return {
    task: o.task,
    itemKey: o.item,
    methods: o.m,
    replicate: o.run,
    turns: [...new Set(o.turns)].sort((a, b) => a - b),
    fields: o.fields,
    width: o.width,
  };
}

/** The same options as a query string, for links and downloads. */
export function figureQuery(o: FigureOptions, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ task: o.task, item: o.itemKey });
  for (const m of o.methods) q.append("m", m);
  if (o.replicate !== undefined) q.set("run", String(o.replicate));
  if (o.turns.length) q.set("turns", o.turns.join(","));
  q.set("fields", o.fields.join(","));
  q.set("width", o.width);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

/** A run of text with its highlight colour, if any. */
export type Span = { text: string; colour: MarkColour | null };
export type FigureMemory = { label: string; text: string };
export type FigureTurn = { turn: number; role: "user" | "assistant"; action: string | null; text: Span[]; memory: FigureMemory[] };
export type FigureColumn = {
  method: string;
  error: string | null;
  turns: FigureTurn[];
  /** A single answer (requirement, solution, HiCUPID answer) when the task is not a dialogue. */
  answer: Array<{ label: string; text: Span[] }>;
  scores: string[];
};
export type FigureModel = {
  title: string;
  width: FigureWidth;
  fields: FigureField[];
  info: Array<{ label: string; text: string }>;
  references: Field[];
  columns: FigureColumn[];
  notes: Array<{ colour: MarkColour; quote: string; note: string | null }>;
  /** The methods shown (their ids, for the picker). */
  columnIds: string[];
  /** The turns in the item and the ones shown, for the picker. */
  allTurns: number[];
  methods: string[];
};

const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** A compact profile: the first fields, each one short line. */
const COMPACT = { profile: 6, personality: 3, chars: 90 };

/** At most this many memory entries under a reply; a figure is read on paper, the rest is counted. */
const MEMORY_PER_REPLY = 5;

/** Memory as people read it: what kind of entry (in words) and its text, never an entry id. */
function memoryOf(entries: MemoryEntry[]): FigureMemory[] {
  const shown = entries.slice(0, MEMORY_PER_REPLY).map((e) => ({ label: humanize(e.kind), text: clip(e.text, 220) }));
  const rest = entries.length - shown.length;
  return rest > 0 ? [...shown, { label: "", text: `… and ${rest} more` }] : shown;
}

function scoreLines(o: MethodOutput): string[] {
  return o.scores.flatMap((s) =>
    s.values.filter((v) => v.value !== null).map((v) => `${metricLabel(v.metric)} ${Number((v.value as number).toFixed(2))}`),
  );
}

export function figureModel(db: Db, experimentId: number, o: FigureOptions): FigureModel {
  const all = itemView(db, experimentId, o.task, o.itemKey, { methods: o.methods, replicate: o.replicate });
  // With no choice, the first three methods in the experiment's order (the reference first), as Figure 4 does.
  const view = o.methods.length ? all : { ...all, outputs: all.outputs.slice(0, 3) };
  const marks = listMarks(db, experimentId, { task: o.task, itemKey: o.itemKey });
  const has = (f: FigureField) => o.fields.includes(f);
  const spans = (text: string, block: string): Span[] =>
    has("highlights")
      ? markSegments(
          text,
          marks.filter((m) => m.block === block),
        ).map((s) => ({ text: s.text, colour: s.mark?.colour ?? null }))
      : [{ text, colour: null }];
  const card = (title: string) => view.cards.find((c) => c.title === title)?.fields ?? [];
  const info: FigureModel["info"] = [];
  if (has("profile"))
    for (const f of card("Profile").slice(0, COMPACT.profile)) info.push({ label: f.label, text: clip(f.text, COMPACT.chars) });
  if (has("personality"))
    for (const f of card("Personality").slice(0, COMPACT.personality))
      info.push({ label: `Personality · ${f.label}`, text: clip(f.text, COMPACT.chars) });
  const topic = view.cards.flatMap((c) => c.fields);
  const pick = (label: string) => topic.find((f) => f.label === label)?.text;
  if (has("situation") && pick("Situation")) info.push({ label: "Situation", text: clip(pick("Situation")!, 240) });
  if (has("query") && pick("User query")) info.push({ label: "User query", text: pick("User query")! });

  const allTurns = [...new Set(view.outputs.flatMap((x) => (x.turns ?? []).map((t) => t.turn)))].sort((a, b) => a - b);
  const bad = o.turns.filter((t) => !allTurns.includes(t));
  if (bad.length && allTurns.length)
    throw new InvalidInputError(`turns: the dialogue has turns ${allTurns[0]}–${allTurns.at(-1)}, not ${bad.join(", ")}`);
  const wanted = (t: number) => !o.turns.length || o.turns.includes(t);
  const columns: FigureColumn[] = view.outputs.map((out) => ({
    method: methodName(out.method),
    error: out.error,
    turns: (out.turns ?? []).flatMap((t, i) =>
      wanted(t.turn)
        ? [
            {
              turn: t.turn,
              role: t.role,
              action: has("actions") ? t.action : null,
              text: spans(t.text, blockId.utterance(out.jobId, i)),
              memory: has("memory") ? memoryOf(t.retrieved) : [],
            },
          ]
        : [],
    ),
    answer: out.turns ? [] : out.answer.map((f) => ({ label: f.label, text: spans(f.text, blockId.answer(out.jobId, f.label)) })),
    scores: has("scores") ? scoreLines(out) : [],
  }));
  if (!columns.length)
    throw new InvalidInputError(`m: none of ${o.methods.join(", ")} answered this topic (methods: ${view.methods.join(", ")})`);
  const shownJobs = new Set(view.outputs.map((x) => `job:${x.jobId}:`));
  const notes = has("highlights")
    ? marks
        .filter((m) => [...shownJobs].some((p) => m.block.startsWith(p)))
        .map((m) => ({ colour: m.colour, quote: clip(m.quote, 120), note: m.note ?? null }))
    : [];
  return {
    title: pick("User query") ? `“${clip(pick("User query")!, 100)}”` : `${o.task} · ${o.itemKey}`,
    width: o.width,
    fields: o.fields,
    info,
    references: has("references") ? view.reference : [],
    columns,
    notes,
    columnIds: view.outputs.map((x) => x.method),
    allTurns,
    methods: view.methods,
  };
}

export { MARK_MEANINGS };
