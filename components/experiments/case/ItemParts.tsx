/**
 * The readable parts of an item view (server-rendered; the text blocks are <Highlightable>): the user's
 * cards, labelled input, a method's output as a chat with the memory per assistant turn or as an answer
 * beside its reference, and the pairwise verdicts with the judges' analyses.
 */
import Link from "next/link";
import type { InfoCard, Field } from "@/lib/tasks/readable";
import type { CallLink, MemoryEntry, MethodOutput, PairVerdict } from "@/lib/experiments/item-view";
import { blockId } from "@/lib/experiments/mark-segments";
import { Highlightable } from "./Marks";
import { itemMetricText, metricLabel } from "../metric-label";

const fmt = (x: number | null) => (x === null ? "—" : String(Number(x.toFixed(3))));

export function Cards({ cards }: { cards: InfoCard[] }) {
  return (
    <div className="space-y-3" data-testid="item-info">
      {cards.map((c) => (
        <section key={c.title} className="rounded border border-slate-200 bg-white p-3">
          <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{c.title}</h2>
          <dl className="space-y-1 text-xs">
            {c.fields.map((f) => (
              <div key={f.label}>
                <dt className="font-medium text-slate-500">{f.label}</dt>
                <dd>
                  <Highlightable block={blockId.info(c.title, f.label)} text={f.text} />
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

export function Fields({
  title,
  fields,
  block,
  testId,
  collapsed = false,
}: {
  title: string;
  fields: Field[];
  block: (label: string) => string;
  testId?: string;
  /** Folded under its title (the compare view, where the outputs matter most). */
  collapsed?: boolean;
}) {
  if (!fields.length) return null;
  const list = (
    <dl className="space-y-1 text-sm">
      {fields.map((f) => (
        <div key={f.label}>
          <dt className="text-xs font-medium text-slate-500">{f.label}</dt>
          <dd>
            <Highlightable block={block(f.label)} text={f.text} />
          </dd>
        </div>
      ))}
    </dl>
  );
  if (collapsed)
    return (
      <details className="rounded border border-slate-200 bg-white p-3" data-testid={testId}>
        <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</summary>
        <div className="mt-1">{list}</div>
      </details>
    );
  return (
    <section className="rounded border border-slate-200 bg-white p-3" data-testid={testId}>
      <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      {list}
    </section>
  );
}

function CallAnchor({ call }: { call: CallLink | null }) {
  if (!call?.cacheKey) return null;
  return (
    <Link
      className="text-indigo-700 hover:underline"
      href={`/memory/calls?key=${call.cacheKey}`}
      title={call.purpose}
      data-testid="turn-call"
    >
      model call{call.cacheHit ? " (cached)" : ""}
    </Link>
  );
}

function Memory({ entries, jobId, step, open = false }: { entries: MemoryEntry[]; jobId: number; step: string; open?: boolean }) {
  return (
    <details className="rounded border border-slate-200 bg-slate-50 px-2 py-1 text-xs" open={open} data-testid="turn-memory">
      <summary className="cursor-pointer text-slate-600">Memory retrieved ({entries.length})</summary>
      {entries.length ? (
        <ol className="mt-1 max-h-80 space-y-1 overflow-y-auto">
          {entries.map((m, i) => (
            <li key={i} className="border-t border-slate-200 pt-1">
              <span className="mr-1 rounded bg-white px-1 text-[10px] text-slate-500">
                {m.kind} {m.key}
                {m.score !== null ? ` · ${fmt(m.score)}` : ""}
              </span>
              <Highlightable block={blockId.memory(jobId, step, i)} text={m.text} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-1 text-slate-500">This method retrieved nothing for this turn.</p>
      )}
    </details>
  );
}

export function Scores({ output }: { output: MethodOutput }) {
  if (!output.scores.length) return null;
  return (
    <dl className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="scores">
      {output.scores.flatMap((s) =>
        s.values.map((v) => (
          <div key={`${s.scorer}.${v.metric}`}>
            <dt className="inline text-slate-500">{metricLabel(v.metric)} </dt>
            <dd className="inline font-medium">{itemMetricText(v.metric, v.value, fmt)}</dd>
          </div>
        )),
      )}
    </dl>
  );
}

/**
 * One method's output. `wide`: the single-method item view, memory beside each assistant turn; else a
 * compare column, memory under the turn. Both keep the memory collapsed.
 */
export function MethodOutputView({
  output: o,
  reference,
  wide,
  name,
}: {
  output: MethodOutput;
  reference: Field[];
  wide: boolean;
  /** The method's display name (its key when absent). */
  name?: string;
}) {
  return (
    <section className="rounded border border-slate-200 bg-white p-3" data-testid="method-output" data-method={o.method}>
      <h2 className="mb-2 flex items-baseline gap-2 text-sm font-semibold" title={o.method}>
        {name ?? o.method}
        <span className="text-xs font-normal text-slate-500">
          run {o.replicate + 1} · {o.status}
        </span>
      </h2>
      {o.error ? (
        <p role="alert" className="mb-2 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700" data-testid="job-error">
          {o.error}
        </p>
      ) : null}
      {o.turns ? (
        <ol className="space-y-2" data-testid="turns">
          {o.turns.map((t, i) => (
            <li
              key={i}
              className={wide ? "grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] items-start gap-3" : ""}
              data-testid={`turn-${t.role}`}
            >
              <div className={`rounded-lg px-3 py-2 text-sm ${t.role === "user" ? "mr-8 bg-slate-100" : "ml-8 bg-indigo-50"}`}>
                <div className="mb-0.5 flex gap-2 text-[11px] text-slate-500">
                  <span className="font-semibold">
                    {t.role === "user" ? "User" : "Assistant"} · turn {t.turn}
                  </span>
                  {t.action ? <span>{t.action}</span> : null}
                  {t.role === "assistant" ? (
                    <span className="ml-auto">
                      <CallAnchor call={t.call} />
                    </span>
                  ) : null}
                </div>
                <Highlightable block={blockId.utterance(o.jobId, i)} text={t.text} />
              </div>
              {t.role === "assistant" ? (
                <div className={wide ? "" : "ml-8 mt-1"}>
                  <Memory entries={t.retrieved} jobId={o.jobId} step={`t${t.turn}`} />
                </div>
              ) : wide ? (
                <div />
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <div className={wide && reference.length ? "grid grid-cols-2 gap-3" : "space-y-2"}>
          <div data-testid="answer">
            {o.answer.length ? (
              o.answer.map((f) => (
                <div key={f.label} className="mb-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm">
                  <div className="text-[11px] font-semibold text-slate-500">{f.label}</div>
                  <Highlightable block={blockId.answer(o.jobId, f.label)} text={f.text} />
                </div>
              ))
            ) : (
              <p className="text-xs text-slate-500">No output.</p>
            )}
          </div>
          {reference.length ? (
            <div className="rounded-lg border border-dashed border-emerald-300 bg-emerald-50/40 px-3 py-2 text-sm" data-testid="reference">
              {reference.map((f) => (
                <div key={f.label} className="mb-1">
                  <div className="text-[11px] font-semibold text-emerald-800">{f.label}</div>
                  <Highlightable block={blockId.reference(f.label)} text={f.text} />
                </div>
              ))}
            </div>
          ) : null}
        </div>
      )}
      {!o.turns && o.retrieved.length ? (
        <div className="mt-2 space-y-1">
          {o.retrieved.map((r) => (
            <div key={r.step}>
              {r.step ? <div className="text-[11px] text-slate-500">{r.step}</div> : null}
              <Memory entries={r.entries} jobId={o.jobId} step={r.step || "answer"} />
            </div>
          ))}
        </div>
      ) : null}
      <Scores output={o} />
      {!o.turns && o.calls.length ? (
        <p className="mt-1 flex flex-wrap gap-x-3 text-xs">
          {o.calls.map((c, i) =>
            c.cacheKey ? (
              <Link key={i} className="text-indigo-700 hover:underline" href={`/memory/calls?key=${c.cacheKey}`}>
                {c.purpose}
              </Link>
            ) : null,
          )}
        </p>
      ) : null}
    </section>
  );
}

const OUTCOME_CLASS: Record<string, string> = { Win: "text-emerald-700", Lose: "text-rose-700", Tie: "text-slate-600" };

export function PairVerdicts({
  pairs,
  experimentId,
  names = {},
}: {
  pairs: PairVerdict[];
  experimentId: number;
  /** Display names by method key; the key when absent. */
  names?: Record<string, string>;
}) {
  if (!pairs.length) return null;
  return (
    <div className="space-y-3" data-testid="verdicts">
      {pairs.map((q) => {
        // Method names as people read them; the keys stay in the links.
        const p = { ...q, a: names[q.a] ?? q.a, b: names[q.b] ?? q.b };
        return (
          <section key={p.jobId} className="rounded border border-slate-200 bg-white p-3" data-testid="verdict">
            <h2 className="mb-1 text-sm font-semibold">
              {p.a} vs {p.b}{" "}
              <Link className="text-xs font-normal text-indigo-700 hover:underline" href={`/experiments/${experimentId}/jobs/${p.jobId}`}>
                judgment
              </Link>
            </h2>
            {p.error ? <p className="text-xs text-rose-700">{p.error}</p> : null}
            {!p.dimensions.length && !p.error ? <p className="text-xs text-slate-500">Not judged yet ({p.status}).</p> : null}
            {p.dimensions.map((d) => (
              <details key={d.dimension} className="border-t border-slate-100 py-1 text-xs">
                <summary className="cursor-pointer">
                  <b>{d.dimension}</b>:{" "}
                  <span className={OUTCOME_CLASS[d.outcome] ?? ""}>
                    {/* Win/Lose are the first method's; a tie belongs to neither. */}
                    {d.outcome === "Tie" ? "Tie" : `${d.outcome} for ${p.a}`}
                  </span>{" "}
                  (mean {p.a} {d.meanA.toFixed(2)}, {p.b} {d.meanB.toFixed(2)})
                </summary>
                <ol className="mt-1 max-h-80 space-y-1 overflow-y-auto">
                  {d.judgments.map((j, i) => (
                    <li key={i} className="rounded bg-slate-50 p-2">
                      <div className="mb-1 text-slate-500">
                        #{i + 1} · {j.order === "AB" ? `${p.a} shown first` : `${p.b} shown first`} · {p.a} {j.scoreA} · {p.b} {j.scoreB}
                      </div>
                      {j.analysis.map((f) => (
                        <div key={f.label}>
                          <span className="font-medium text-slate-500">{f.label}: </span>
                          <Highlightable block={blockId.analysis(p.jobId, d.dimension, i, f.label)} text={f.text} />
                        </div>
                      ))}
                    </li>
                  ))}
                </ol>
              </details>
            ))}
          </section>
        );
      })}
    </div>
  );
}
