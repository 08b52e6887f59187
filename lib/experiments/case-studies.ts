/**
 * Case studies: the items a researcher starred (with a note and tags), each shown like Mem-PAL Figure 4 —
 * the user's information, then every method's output on that topic side by side with the team's
 * highlighted passages — listed with filters and exported as Markdown or as one self-contained HTML
 * figure. Starring any method's job of an item stars the item: all methods' outputs on it are collected.
 */
import { runLabel } from "./run-label";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, type MarkColour } from "@/db/schema";
import { getTask } from "@/lib/tasks/registry";
import type { Field } from "@/lib/tasks/readable";
import { getExperimentRow } from "./control";
import { itemView, type ItemView, type MethodOutput } from "./item-view";
import { listMarks, MARK_MEANINGS, type CaseMark } from "./marks";
import { blockId, markSegments } from "./mark-segments";
import { readGroups } from "./aggregates";
import { escapeXml, xmlSafe } from "@/lib/xml-text";
import { clipTitle } from "./item-titles";
import { methodDisplayName } from "./method-choices";

export type CaseStudyFilter = { task?: string; method?: string; tag?: string; q?: string; itemKey?: string };

export type CaseStudySummary = {
  task: string;
  itemKey: string;
  /** The starred jobs of the item with their notes (one per starred method). */
  stars: Array<{ jobId: number; method: string; note: string | null; tags: string[] }>;
  tags: string[];
  methods: string[];
  marks: CaseMark[];
  /** What the topic is about, for the list: the user's query (PAL-Bench) or the question (HiCUPID). */
  headline: Field | null;
};

/** The starred items, filtered: by task, by a method having an output on it, by tag, by text in notes, marks or the item key. */
export function listCaseStudies(
  db: Db,
  experimentId: number,
  filter: CaseStudyFilter = {},
  opts: { headlines?: boolean } = {},
): CaseStudySummary[] {
  // Only the starred jobs are read (a partial index holds them); which methods answered an item comes
  // from the running sums' groups: every method of a task has a job for each of its items.
  const starred = db
    .select({ id: jobs.id, task: jobs.task, itemKey: jobs.itemKey, method: jobs.method, note: jobs.starNote, tags: jobs.starTags })
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.starred, true)))
    .orderBy(asc(jobs.task), asc(jobs.itemKey), asc(jobs.phase), asc(jobs.method), asc(jobs.replicate))
    .all();
  const methodsOf = new Map<string, string[]>();
  for (const g of readGroups(db, experimentId)) {
    if (g.phase !== 0) continue;
    const ms = methodsOf.get(g.task) ?? [];
    if (!ms.includes(g.method)) ms.push(g.method);
    methodsOf.set(g.task, ms);
  }
  const marks = listMarks(db, experimentId);
  const byItem = new Map<string, CaseStudySummary>();
  for (const j of starred) {
    const k = `${j.task}\u0000${j.itemKey}`;
    let c = byItem.get(k);
    if (!c) {
      c = {
        task: j.task,
        itemKey: j.itemKey,
        stars: [],
        tags: [],
        methods: [...(methodsOf.get(j.task) ?? [])].sort(),
        marks: [],
        headline: null,
      };
      byItem.set(k, c);
    }
    c.stars.push({ jobId: j.id, method: j.method, note: j.note, tags: j.tags ?? [] });
  }
  const out = [...byItem.values()].filter((c) => c.stars.length);
  for (const c of out) {
    c.tags = [...new Set(c.stars.flatMap((s) => s.tags))].sort();
    c.marks = marks.filter((m) => m.task === c.task && m.itemKey === c.itemKey);
  }
  const q = filter.q?.trim().toLowerCase();
  const kept = out.filter(
    (c) =>
      (!filter.task || c.task === filter.task) &&
      (!filter.itemKey || c.itemKey === filter.itemKey) &&
      (!filter.method || c.methods.includes(filter.method)) &&
      (!filter.tag || c.tags.includes(filter.tag.toLowerCase())) &&
      (!q ||
        c.itemKey.toLowerCase().includes(q) ||
        c.stars.some((s) => s.note?.toLowerCase().includes(q)) ||
        c.marks.some((m) => m.quote.toLowerCase().includes(q) || m.note?.toLowerCase().includes(q))),
  );
  // The headline reads the item's data set rows: only when shown (the filters' choices need none).
  if (opts.headlines === false) return kept;
  const { datasetId } = getExperimentRow(db, experimentId);
  for (const c of kept) {
    const fields =
      getTask(c.task)
        .present?.(db, datasetId, c.itemKey)
        .cards.flatMap((card) => card.fields) ?? [];
    c.headline = fields.find((f) => f.label === "User query" || f.label === "Question") ?? null;
  }
  return kept;
}

export type CaseStudy = CaseStudySummary & { view: ItemView };

/** A case study as people read it: the user's query (or question), clipped; the item key only when there is none. */
export function caseTitle(c: Pick<CaseStudySummary, "task" | "itemKey" | "headline">): string {
  return c.headline?.text.trim() ? clipTitle(c.headline.text) : `${c.task} · ${c.itemKey}`;
}

/** A method of a case study under its display name (the config's label, else the registry's name). */
const nameIn = (v: ItemView, method: string) => v.methodNames[method] ?? methodDisplayName({ name: method });

export function caseStudies(db: Db, experimentId: number, filter: CaseStudyFilter = {}): CaseStudy[] {
  return listCaseStudies(db, experimentId, filter).map((c) => ({ ...c, view: itemView(db, experimentId, c.task, c.itemKey) }));
}

/** Every block of a case study as (id, heading, text), in reading order: what both exports walk. */
function blocksOf(v: ItemView) {
  const info = v.cards.map((card) => ({
    title: card.title,
    fields: card.fields.map((f) => ({ id: blockId.info(card.title, f.label), label: f.label, text: f.text })),
  }));
  return { info };
}

const scoreLine = (o: MethodOutput) =>
  o.scores
    .flatMap((s) => s.values.map((x) => `${s.scorer}.${x.metric} = ${x.value === null ? "—" : Number(x.value.toFixed(3))}`))
    .join(", ");

/** One line per pairwise judgment between the shown methods: each dimension's outcome for the first and the two means. */
const verdictLines = (v: ItemView) =>
  v.pairs.map(
    (p) =>
      `${nameIn(v, p.a)} vs ${nameIn(v, p.b)}: ` +
      (p.dimensions.length
        ? p.dimensions.map((d) => `${d.dimension} ${d.outcome} (${d.meanA.toFixed(2)} vs ${d.meanB.toFixed(2)})`).join(", ")
        : (p.error ?? p.status)),
  );

/**
 * Text from notes, tags, highlights and model outputs is data, not markup: `<`, `>` and `&` become
 * entities, so raw HTML in it (`<img onerror>`, `<script>`) is shown as text by a Markdown renderer,
 * as the HTML export shows it.
 */
const md = (s: string) => xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const quote = (s: string) =>
  md(s)
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");

/** Markdown with marks as **bold** followed by their colour's meaning in a footnote-like list. */
export function caseStudiesMarkdown(db: Db, experimentId: number, filter: CaseStudyFilter = {}): string {
  const e = getExperimentRow(db, experimentId);
  const lines = [`# Case studies: ${md(e.name)} (experiment ${experimentId})`, ""];
  const list = caseStudies(db, experimentId, filter);
  if (!list.length) lines.push("No starred items.", "");
  for (const c of list) {
    lines.push(`## ${md(caseTitle(c))}`, "", `${md(c.task)} · ${md(c.itemKey)}`, "");
    for (const s of c.stars) if (s.note) lines.push(`*${md(s.note)}* (${md(nameIn(c.view, s.method))})`, "");
    if (c.tags.length) lines.push(`Tags: ${c.tags.map(md).join(", ")}`, "");
    for (const card of blocksOf(c.view).info) {
      lines.push(`### ${md(card.title)}`, "");
      for (const f of card.fields) lines.push(`**${md(f.label)}**`, "", quote(f.text), "");
    }
    for (const o of c.view.outputs) {
      lines.push(`### ${md(nameIn(c.view, o.method))}${o.replicate ? ` (${runLabel(o.replicate)})` : ""}`, "");
      if (o.error) lines.push(`Failed: ${md(o.error)}`, "");
      if (o.turns) for (const t of o.turns) lines.push(quote(`${t.role === "user" ? "User" : "Assistant"}: ${t.text}`), "");
      else if (o.answer.length) for (const f of o.answer) lines.push(quote(`${f.label}: ${f.text}`), "");
      else lines.push("> (no output)", "");
      const sc = scoreLine(o);
      if (sc) lines.push(`Scores: ${md(sc)}`, "");
    }
    const verdicts = verdictLines(c.view);
    if (verdicts.length) lines.push("### Pairwise verdicts", "", ...verdicts.map((l) => `- ${md(l)}`), "");
    if (c.marks.length) {
      lines.push("### Highlighted passages", "");
      for (const m of c.marks)
        lines.push(`- "${md(m.quote)}" (${md(m.where)}) — ${MARK_MEANINGS[m.colour]}${m.note ? `: ${md(m.note)}` : ""} (${md(m.author)})`);
      lines.push("");
    }
  }
  return lines.join("\n");
}

const esc = escapeXml;

function marked(text: string, block: string, marks: CaseMark[]): string {
  const mine = marks.filter((m) => m.block === block);
  return markSegments(text, mine)
    .map((s) =>
      s.mark
        ? `<mark class="${s.mark.colour}" title="${esc(MARK_MEANINGS[s.mark.colour] + (s.mark.note ? `: ${s.mark.note}` : ""))}">${esc(s.text)}</mark>`
        : esc(s.text),
    )
    .join("");
}

const COLOURS: Record<MarkColour, string> = { need: "#fde68a", preference: "#bfdbfe", contradicts: "#d1d5db" };

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;margin:24px;background:#fff}
h1{font-size:18px;margin:0 0 16px}h2{font-size:16px;margin:0 0 4px}h3{font-size:13px;margin:0 0 6px;text-transform:uppercase;letter-spacing:.03em;color:#475569}
figure{margin:0 0 32px;border:1px solid #cbd5e1;border-radius:8px;padding:16px;break-inside:avoid}
.key{font-size:11px;color:#64748b;margin:0 0 6px}figcaption{font-size:13px;color:#334155;margin:0 0 12px}.tags span{display:inline-block;background:#eef2ff;border-radius:4px;padding:0 6px;margin-right:4px;font-size:12px}
.grid{display:grid;grid-template-columns:minmax(220px,1fr) 3fr;gap:16px}.methods{display:grid;gap:12px}
.card{border:1px solid #e2e8f0;border-radius:6px;padding:8px;margin-bottom:8px;background:#f8fafc}.card dt{font-size:11px;color:#64748b;font-weight:600}.card dd{margin:0 0 4px;white-space:pre-wrap;font-size:12px}
.method{border:1px solid #e2e8f0;border-radius:6px;padding:8px}.turn{border-radius:6px;padding:4px 8px;margin:0 0 6px;font-size:12px;white-space:pre-wrap}
.user{background:#f1f5f9}.assistant{background:#eef2ff}.who{font-weight:600;font-size:11px;color:#475569;display:block}.scores{font-size:11px;color:#64748b}
mark.need{background:${COLOURS.need}}mark.preference{background:${COLOURS.preference}}mark.contradicts{background:${COLOURS.contradicts}}
.verdicts{font-size:12px;color:#334155;margin:12px 0 0}.legend{font-size:12px;margin:0 0 16px}.legend mark{padding:0 6px;margin-right:4px}.notes{font-size:12px;margin:8px 0 0;padding-left:18px}
`;

/**
 * One self-contained HTML file (inline style, no script, no outside resource) with a figure per case
 * study: user information on the left, the methods' outputs side by side on the right, marks coloured
 * as in the legend, the star notes as the caption. What a paper's appendix needs.
 */
export function caseStudiesHtml(db: Db, experimentId: number, filter: CaseStudyFilter = {}): string {
  const e = getExperimentRow(db, experimentId);
  const list = caseStudies(db, experimentId, filter);
  const legend = (Object.keys(MARK_MEANINGS) as MarkColour[])
    .map((c) => `<mark class="${c}">&nbsp;</mark>${esc(MARK_MEANINGS[c])}`)
    .join(" &nbsp; ");
  const figures = list.map((c, n) => {
    const cards = blocksOf(c.view)
      .info.map(
        (card) =>
          `<div class="card"><h3>${esc(card.title)}</h3><dl>${card.fields.map((f) => `<dt>${esc(f.label)}</dt><dd>${marked(f.text, f.id, c.marks)}</dd>`).join("")}</dl></div>`,
      )
      .join("");
    const cols = c.view.outputs
      .map((o) => {
        const body = o.turns
          ? o.turns
              .map(
                (t, i) =>
                  `<p class="turn ${t.role}"><span class="who">${t.role === "user" ? "User" : esc(nameIn(c.view, o.method))}</span>${marked(t.text, blockId.utterance(o.jobId, i), c.marks)}</p>`,
              )
              .join("")
          : o.answer.length
            ? o.answer
                .map(
                  (f) =>
                    `<p class="turn assistant"><span class="who">${esc(f.label)}</span>${marked(f.text, blockId.answer(o.jobId, f.label), c.marks)}</p>`,
                )
                .join("")
            : `<p class="turn">${esc(o.error ? `failed: ${o.error}` : "(no output)")}</p>`;
        const sc = scoreLine(o);
        return `<section class="method"><h3>${esc(nameIn(c.view, o.method))}</h3>${body}${sc ? `<p class="scores">${esc(sc)}</p>` : ""}</section>`;
      })
      .join("");
    const notes = c.stars.filter((s) => s.note).map((s) => esc(s.note!));
    const marksNoted = c.marks
      .filter((m) => m.note)
      .map((m) => `<li><mark class="${m.colour}">${esc(m.quote)}</mark> (${esc(m.where)}) — ${esc(m.note!)}</li>`);
    return `<figure id="case-${n + 1}">
<h2>Case ${n + 1}: ${esc(caseTitle(c))}</h2>
<p class="key">${esc(c.task)} · ${esc(c.itemKey)}</p>
<figcaption>${notes.join(" ")}${c.tags.length ? ` <span class="tags">${c.tags.map((t) => `<span>${esc(t)}</span>`).join("")}</span>` : ""}</figcaption>
<div class="grid"><div>${cards}</div><div class="methods" style="grid-template-columns:repeat(${Math.max(1, Math.min(c.view.outputs.length, 4))},minmax(0,1fr))">${cols}</div></div>
${verdictLines(c.view).length ? `<p class="verdicts">${verdictLines(c.view).map(esc).join("<br>")}</p>` : ""}
${marksNoted.length ? `<ul class="notes">${marksNoted.join("")}</ul>` : ""}
</figure>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(`Case studies: ${e.name}`)}</title><style>${STYLE}</style></head>
<body><h1>${esc(`Case studies: ${e.name} (experiment ${experimentId})`)}</h1>
<p class="legend">${legend}</p>
${figures.length ? figures.join("\n") : "<p>No starred items.</p>"}
</body></html>
`;
}
