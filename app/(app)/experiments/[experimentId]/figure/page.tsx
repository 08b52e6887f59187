import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { getExperimentRow } from "@/lib/experiments/control";
import { listCaseStudies } from "@/lib/experiments/case-studies";
import { FIELD_LABELS, FIGURE_FIELDS, figureModel, figureOptions, figureQuery } from "@/lib/experiments/figure4";
import { methodDisplayName } from "@/lib/experiments/method-choices";
import { EmptyState, PageHeader } from "@/components/shell/PageHeader";
import { InvalidInputError } from "@/lib/errors";

export const metadata: Metadata = { title: "Figure 4" };

/**
 * Mem-PAL Figure 4 for a paper: the researcher picks the topic, the methods, the turns and the fields and
 * the width; the preview is the SVG export itself, and the same options download HTML, SVG or (printed) PDF.
 */
export default async function FigurePage({
  params,
  searchParams,
}: {
  params: Promise<{ experimentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const raw = await searchParams;
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) for (const x of Array.isArray(v) ? v : v !== undefined ? [v] : []) sp.append(k, x);
  // The form sends one checkbox per turn and per field; the export takes comma lists.
  for (const k of ["turns", "fields"] as const)
    if (sp.getAll(k).length > 1) {
      const all = sp.getAll(k).join(",");
      sp.delete(k);
      sp.set(k, all);
    }
  const db = getDb();
  const e = orNotFound(() => getExperimentRow(db, id));
  const starred = listCaseStudies(db, id).filter((c) => !sp.get("task") || c.task === sp.get("task"));
  if (!sp.get("task") && starred[0]) {
    sp.set("task", starred[0].task);
    sp.set("item", starred[0].itemKey);
  }
  if (!sp.get("task"))
    return (
      <>
        <PageHeader title={`Figure 4: ${e.name}`} />
        <EmptyState title="No topic chosen">
          Open a topic in the{" "}
          <Link className="text-indigo-700 hover:underline" href={`/experiments/${id}`}>
            experiment&apos;s Items table
          </Link>{" "}
          and use <b>Figure 4…</b> in its compare view, or star it to list it here.
        </EmptyState>
      </>
    );
  // Options a person typed into the address bar: a refusal is shown with its reason, not a 404.
  let o: ReturnType<typeof figureOptions>;
  let m: ReturnType<typeof figureModel>;
  try {
    o = figureOptions(sp);
    m = figureModel(db, id, o);
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    return (
      <>
        <PageHeader title={`Figure 4: ${e.name}`} />
        <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {err.message}
        </p>
      </>
    );
  }
  const shownMethods = new Set(m.columns.map((c) => c.method));
  const shownIds = new Set(m.columnIds);
  const q = figureQuery(o);
  const download = (format: string, label: string) => (
    <a
      className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
      href={`/api/experiments/${id}/export?${q}&format=${format}`}
    >
      {label}
    </a>
  );
  const box = "flex items-center gap-1 text-xs text-slate-700";
  return (
    <>
      <PageHeader
        title={`Figure 4: ${e.name}`}
        subtitle={
          <span className="flex gap-3">
            <Link
              className="text-indigo-700 hover:underline"
              href={`/experiments/${id}/compare?task=${encodeURIComponent(o.task)}&item=${encodeURIComponent(o.itemKey)}`}
            >
              compare view of this topic
            </Link>
            <Link className="text-indigo-700 hover:underline" href={`/experiments/${id}/case-studies`}>
              case studies
            </Link>
          </span>
        }
        actions={
          <div className="flex gap-2" data-testid="figure-downloads">
            {download("figure-svg", "Download SVG")}
            {download("figure-html", "Download HTML")}
            <a
              className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
              href={`/api/experiments/${id}/export?${q}&format=figure-print&inline=1`}
              target="_blank"
              rel="noreferrer"
              title="Opens the figure alone, scaled to one A4 page; print it and choose Save as PDF"
            >
              PDF (print)
            </a>
          </div>
        }
      />
      <div className="grid items-start gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <form method="get" aria-label="Figure options" className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <label className="block text-xs text-slate-600">
            Topic
            <select name="item" defaultValue={o.itemKey} className="mt-1 w-full rounded border border-slate-300 px-1 py-1 text-sm">
              {starred.some((c) => c.itemKey === o.itemKey) ? null : <option value={o.itemKey}>{o.itemKey}</option>}
              {starred.map((c) => (
                <option key={`${c.task}/${c.itemKey}`} value={c.itemKey}>
                  ★ {c.headline?.text ? c.headline.text.slice(0, 60) : c.itemKey}
                </option>
              ))}
            </select>
          </label>
          <input type="hidden" name="task" value={o.task} />
          {o.replicate !== undefined ? <input type="hidden" name="run" value={o.replicate} /> : null}
          <fieldset>
            <legend className="text-xs font-medium text-slate-500">Methods (at most 4)</legend>
            {m.methods.map((x) => (
              <label key={x} className={box}>
                <input type="checkbox" name="m" value={x} defaultChecked={shownIds.has(x)} /> {methodDisplayName({ name: x })}
              </label>
            ))}
          </fieldset>
          {m.allTurns.length ? (
            <fieldset>
              <legend className="text-xs font-medium text-slate-500">
                Turns (none ticked: the highlighted ones, else the first three)
              </legend>
              <div className="flex flex-wrap gap-2">
                {m.allTurns.map((t) => (
                  <label key={t} className={box}>
                    <input type="checkbox" name="turns" value={t} defaultChecked={o.turns !== "all" && m.shownTurns.includes(t)} /> {t}
                  </label>
                ))}
                <label className={box}>
                  <input type="checkbox" name="turns" value="all" defaultChecked={o.turns === "all"} /> all
                </label>
              </div>
            </fieldset>
          ) : null}
          <fieldset>
            <legend className="text-xs font-medium text-slate-500">Fields</legend>
            {FIGURE_FIELDS.map((f) => (
              <label key={f} className={box}>
                <input type="checkbox" name="fields" value={f} defaultChecked={o.fields.includes(f)} /> {FIELD_LABELS[f]}
              </label>
            ))}
          </fieldset>
          <fieldset className="flex gap-3">
            <legend className="text-xs font-medium text-slate-500">Width</legend>
            <label className={box}>
              <input type="radio" name="width" value="column" defaultChecked={o.width === "column"} /> one column
            </label>
            <label className={box}>
              <input type="radio" name="width" value="full" defaultChecked={o.width === "full"} /> full width
            </label>
          </fieldset>
          <button className="w-full rounded bg-indigo-600 px-3 py-1 text-sm text-white hover:bg-indigo-700">Update figure</button>
          <p className="text-xs text-slate-500">
            {shownMethods.size} method(s), {o.turns === "all" ? "all turns" : `turns ${m.shownTurns.join(", ")}`}. Highlights come from the
            compare view; the star note is the caption.
          </p>
        </form>
        {/* A long figure (all turns) scrolls inside a box the height of the window instead of making the page thousands of px tall. */}
        <div
          className="max-h-[calc(100vh-10rem)] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3"
          data-testid="figure-preview-box"
        >
          {/* The preview is the SVG export itself: what you see is what you download. */}
          {/* eslint-disable-next-line @next/next/no-img-element -- a same-origin SVG file, not an optimisable photo */}
          <img
            src={`/api/experiments/${id}/export?${q}&format=figure-svg&inline=1`}
            alt={`Figure 4 of ${m.title}`}
            data-testid="figure-preview"
            className="mx-auto bg-white shadow"
          />
        </div>
      </div>
    </>
  );
}
