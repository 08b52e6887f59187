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
import { methodDisplayName } from "../method-choices";
import { getExperimentRow } from "../control";
import { listCaseStudies } from "../case-studies";
import { itemEvidence } from "../item-evidence";
import { defaultMethods, defaultTurns } from "./defaults";

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
  "evidence",
  "caption",
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
  evidence: "Evidence turns (LoCoMo, LongMemEval)",
  caption: "Caption (the star note)",
};
/** What a new figure shows: Figure 4's columns, without the references and scores a reader does not need. */
export const DEFAULT_FIELDS: FigureField[] = [
  "profile",
  "personality",
  "situation",
  "query",
  "memory",
  "actions",
  "highlights",
  "evidence",
  "caption",
];

/** One column of a two-column paper (about 3.3 in) or the text width (about 7 in), at 96 px an inch. */
export const WIDTHS = { column: 320, full: 672 } as const;
export type FigureWidth = keyof typeof WIDTHS;

export type FigureOptions = {
  task: string;
  itemKey: string;
  methods: string[];
  replicate?: number;
  /** 1-based turns to show; empty: the default (defaults.ts); "all": every turn. */
  turns: number[] | "all";
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
  turns: z.union([
    z.tuple([z.literal("all")]).transform(() => "all" as const),
    z
      .array(
        z
          .string()
          .regex(/^\d{1,3}$/, "expected turn numbers such as 1,2,5, or all")
          .transform(Number),
      )
      .max(100),
  ]),
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
    // "all" wins over ticked turns (the form sends both when both are ticked).
    turns: list(sp.get("turns")).includes("all") ? ["all"] : list(sp.get("turns")),
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
    turns: o.turns === "all" ? "all" : [...new Set(o.turns)].sort((a, b) => a - b),
    fields: o.fields,
    width: o.width,
  };
}

/** The same options as a query string, for links and downloads. */
export function figureQuery(o: FigureOptions, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ task: o.task, item: o.itemKey });
  for (const m of o.methods) q.append("m", m);
  if (o.replicate !== undefined) q.set("run", String(o.replicate));
  if (o.turns === "all" || o.turns.length) q.set("turns", o.turns === "all" ? "all" : o.turns.join(","));
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
/** A benchmark item's evidence turn and the shown methods whose retrieved context held it. */
export type FigureEvidence = { id: string; speaker: string; text: string; by: string[] };
export type FigureModel = {
  title: string;
  width: FigureWidth;
  fields: FigureField[];
  /** Profile, personality, situation and query lines, with the highlights on them. */
  info: Array<{ label: string; text: Span[] }>;
  /** The star notes of the item (why it was picked): the figure's caption. */
  caption: string | null;
  references: Field[];
  columns: FigureColumn[];
  /** LoCoMo / LongMemEval: the evidence turns (empty for the other tasks or without the field). */
  evidence: FigureEvidence[];
  notes: Array<{ colour: MarkColour; quote: string; note: string | null }>;
  /** The methods shown (their ids, for the picker). */
  columnIds: string[];
  /** The turns in the item and the ones shown, for the picker. */
  allTurns: number[];
  shownTurns: number[];
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

/**
 * A highlighted field shortened to about `n` characters: the window keeps the first highlight whole
 * (with a little text before it), "…" where text was cut; unmarked text is cut at the end.
 */
export function clipSpans(spans: Span[], n: number): Span[] {
  const flat = spans.map((x) => ({ ...x, text: x.text.replace(/\s+/g, " ") })).filter((x) => x.text);
  if (flat.length) {
    flat[0].text = flat[0].text.trimStart();
    flat[flat.length - 1].text = flat[flat.length - 1].text.trimEnd();
  }
  const total = flat.reduce((a, x) => a + x.text.length, 0);
  if (total <= n) return flat;
  let at = 0;
  let markStart = -1;
  let markEnd = -1;
  for (const x of flat) {
    if (x.colour && markStart < 0) [markStart, markEnd] = [at, at + x.text.length];
    at += x.text.length;
  }
  const from = markStart > n - 20 ? Math.max(0, markStart - 20) : 0;
  const to = Math.min(total, Math.max(from + n - 1, markEnd));
  const out: Span[] = [];
  at = 0;
  for (const x of flat) {
    const a = Math.max(from, at);
    const b = Math.min(to, at + x.text.length);
    if (b > a) out.push({ text: x.text.slice(a - at, b - at), colour: x.colour });
    at += x.text.length;
  }
  if (from > 0) out.unshift({ text: "…", colour: null });
  if (to < total) out.push({ text: "…", colour: null });
  return out;
}

/** Where a mark on an utterance sits: its turn (utterances alternate user / assistant from the user's first line). */
const turnOfBlock = (block: string) => {
  const u = /^job:\d+:u(\d+)$/.exec(block);
  return u ? Math.floor(Number(u[1]) / 2) + 1 : null;
};

export function figureModel(db: Db, experimentId: number, o: FigureOptions): FigureModel {
  const all = itemView(db, experimentId, o.task, o.itemKey, { replicate: o.replicate });
  const stars = listCaseStudies(db, experimentId, { task: o.task, itemKey: o.itemKey }, { headlines: false })[0]?.stars ?? [];
  const config = getExperimentRow(db, experimentId).config as Parameters<typeof defaultMethods>[1];
  const chosen = o.methods.length
    ? o.methods.filter((m) => all.methods.includes(m))
    : defaultMethods(
        all.methods,
        config,
        stars.map((x) => x.method),
      );
  const view = { ...all, outputs: chosen.map((m) => all.outputs.find((x) => x.method === m)!).filter(Boolean) };
  const marks = listMarks(db, experimentId, { task: o.task, itemKey: o.itemKey });
  const has = (f: FigureField) => o.fields.includes(f);
  // Every mark drawn is listed under the figure, in drawing order, once.
  const drawn = new Map<number, (typeof marks)[number]>();
  const spans = (text: string, block: string): Span[] =>
    has("highlights")
      ? markSegments(
          text,
          marks.filter((m) => m.block === block),
        ).map((s) => {
          if (s.mark) drawn.set(s.mark.id, s.mark);
          return { text: s.text, colour: s.mark?.colour ?? null };
        })
      : [{ text, colour: null }];
  const info: FigureModel["info"] = [];
  const infoLine = (card: string, f: Field, label: string, chars: number) =>
    info.push({ label, text: clipSpans(spans(f.text, blockId.info(card, f.label)), chars) });
  const fieldsOf = (title: string) => view.cards.find((c) => c.title === title)?.fields ?? [];
  // A field the researcher highlighted is always shown, whole (issue 44.1): the compact cut left out "Hobbies"
  // and clipped Occupation, so the figure dropped marks the case-studies export kept.
  const marked = (card: string, f: Field) => has("highlights") && marks.some((m) => m.block === blockId.info(card, f.label));
  const compact = (card: string, keep: number, label: (f: Field) => string) =>
    fieldsOf(card).forEach((f, i) => {
      if (marked(card, f)) infoLine(card, f, label(f), Number.POSITIVE_INFINITY);
      else if (i < keep) infoLine(card, f, label(f), COMPACT.chars);
    });
  if (has("profile")) compact("Profile", COMPACT.profile, (f) => f.label);
  if (has("personality")) compact("Personality", COMPACT.personality, (f) => `Personality · ${f.label}`);
  const topic = view.cards.flatMap((c) => c.fields.map((f) => ({ card: c.title, f })));
  const pick = (label: string) => topic.find((x) => x.f.label === label);
  const situation = pick("Situation");
  if (has("situation") && situation) infoLine(situation.card, situation.f, "Situation", 240);
  const query = pick("User query");
  const question = o.task === "locomo" || o.task === "longmemeval" ? pick("Question") : undefined;
  if (has("query") && query) infoLine(query.card, query.f, "User query", 2000);

  const allTurns = [...new Set(view.outputs.flatMap((x) => (x.turns ?? []).map((t) => t.turn)))].sort((a, b) => a - b);
  const explicit = o.turns === "all" ? [] : o.turns;
  const bad = explicit.filter((t) => !allTurns.includes(t));
  if (bad.length && allTurns.length)
    throw new InvalidInputError(`turns: the dialogue has turns ${allTurns[0]}–${allTurns.at(-1)}, not ${bad.join(", ")}`);
  const shownJobs = new Set(view.outputs.map((x) => x.jobId));
  const highlighted = marks
    .filter((m) => shownJobs.has(Number(/^job:(\d+):/.exec(m.block)?.[1])))
    .map((m) => turnOfBlock(m.block))
    .filter((t): t is number => t !== null);
  const shownTurns = o.turns === "all" ? allTurns : explicit.length ? explicit : defaultTurns(allTurns, highlighted);
  const columns: FigureColumn[] = view.outputs.map((out) => ({
    method: view.methodNames[out.method] ?? methodDisplayName({ name: out.method }),
    error: out.error,
    turns: (out.turns ?? []).flatMap((t, i) =>
      shownTurns.includes(t.turn)
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
  const ev = has("evidence") ? itemEvidence(db, view) : null;
  const evidence: FigureEvidence[] = (ev?.sessions ?? []).flatMap((s) =>
    s.turns
      .filter((u) => u.evidence)
      .map((u) => ({
        id: u.diaId ?? `${s.label} #${u.position + 1}`,
        speaker: u.speaker,
        text: clip(u.text, 240),
        by: u.retrievedBy.map((m) => view.methodNames[m] ?? methodDisplayName({ name: m })),
      })),
  );
  const notes = [...drawn.values()].map((m) => ({ colour: m.colour, quote: clip(m.quote, 120), note: m.note ?? null }));
  const caption = has("caption") ? [...new Set(stars.map((x) => x.note?.trim()).filter((x): x is string => !!x))].join(" ") || null : null;
  return {
    // PAL-Set: the user's query; LoCoMo / LongMemEval: the question.
    title: query ? `“${clip(query.f.text, 100)}”` : question ? `“${clip(question.f.text, 100)}”` : `${o.task} · ${o.itemKey}`,
    width: o.width,
    fields: o.fields,
    info,
    caption,
    references: has("references") ? view.reference : [],
    columns,
    evidence,
    notes,
    columnIds: view.outputs.map((x) => x.method),
    allTurns,
    shownTurns: allTurns.filter((t) => shownTurns.includes(t)),
    methods: view.methods,
  };
}

export { MARK_MEANINGS };
