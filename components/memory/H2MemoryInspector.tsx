/**
 * H2Memory as built, session by session: the log graph beside its situations, the background per
 * aspect as it changed, the topic outlines, and the principle clusters with their members. Every
 * entry links to the model call(s) that produced it (`callHref(cacheKey)`).
 */
import Link from "next/link";
import { LogGraphView } from "./LogGraphView";
import { renderEntry } from "./entry-renderers";
import { componentColour } from "./colours";
import type { BackgroundEntry, LogGraphEntry, PrincipleEntry, SituationEntry, TopicOutlineEntry } from "@/lib/assistants/h2memory/types";
import { byWriteOrder } from "@/lib/memory/entry-order";

export type InspectorEntry = {
  id: number;
  kind: string;
  key: string;
  content: unknown;
  validFromSeq: number;
  validToSeq: number | null;
  session?: string;
  /** The calls that produced it (every method's entries carry them). */
  callKeys?: string[];
};
export type InspectorSession = { seq: number; key: string; split: string };

function CallLink({ base, callKey, label = "call" }: { base: string; callKey: string | null | undefined; label?: string }) {
  if (!callKey) return null;
  return (
    <Link href={`${base}?key=${encodeURIComponent(callKey)}`} className="text-xs text-indigo-600 hover:underline" data-testid="call-link">
      {label}
    </Link>
  );
}

const of = <C,>(entries: InspectorEntry[], kind: string) =>
  entries.filter((e) => e.kind === kind) as Array<InspectorEntry & { content: C }>;

export function H2MemoryInspector({
  sessions,
  entries,
  callsBase,
}: {
  sessions: InspectorSession[];
  entries: InspectorEntry[];
  callsBase: string;
}) {
  const graphs = of<LogGraphEntry>(entries, "log_graph");
  const situations = of<SituationEntry>(entries, "situation");
  const backgrounds = of<BackgroundEntry>(entries, "background");
  const outlines = of<TopicOutlineEntry>(entries, "topic_outline");
  const principles = of<PrincipleEntry>(entries, "principle");
  const outlineByKey = new Map(outlines.map((o) => [o.key, o]));
  // The principles as they stand now (the latest version of each cluster).
  const current = principles.filter((p) => p.validToSeq === null);

  return (
    <div className="space-y-8">
      <section data-testid="sessions">
        <h2 className="mb-3 text-lg font-semibold">Sessions</h2>
        <div className="space-y-6">
          {sessions.map((s) => {
            const g = graphs.find((x) => x.key === s.key)?.content;
            // Natural order: log_2 before log_10.
            const sits = situations
              .filter((x) => x.content.session === s.key)
              .sort((x, y) => x.key.localeCompare(y.key, undefined, { numeric: true }));
            const bgs = backgrounds.filter((x) => x.content.session === s.key);
            const outs = outlines.filter((x) => x.content.session === s.key);
            return (
              <details
                key={s.key}
                open={s.seq === sessions[0]?.seq}
                className="rounded-lg border border-slate-200 bg-white p-4"
                data-testid={`session-${s.key}`}
              >
                <summary className="cursor-pointer font-medium">
                  {s.key}{" "}
                  <span className="text-xs text-slate-500">
                    ({s.split}, seq {s.seq}) · {sits.length} situations · {outs.length} outlines
                  </span>
                </summary>
                {g && g.logs.length ? (
                  <div className="mt-3 grid gap-4 lg:grid-cols-[3fr_2fr]">
                    <LogGraphView logs={g.logs} edges={g.edges} components={g.components} />
                    <ul className="space-y-2" data-testid="situations">
                      {sits.map((x) => (
                        <li
                          key={x.key}
                          className="rounded border-l-4 bg-slate-50 p-2 text-sm"
                          style={{ borderColor: componentColour(x.content.index) }}
                        >
                          <div>{x.content.situation}</div>
                          <div className="mt-1 flex gap-2 text-xs text-slate-500">
                            <span>{x.content.aspects.join(", ")}</span>
                            <span>{x.content.logIds.join(" ")}</span>
                            <CallLink base={callsBase} callKey={x.content.callKey} />
                          </div>
                        </li>
                      ))}
                      <li className="text-xs text-slate-500">
                        log-graph windows:{" "}
                        {g.windows.map((w, i) => (
                          <span key={i} className="mr-2">
                            {w.first}–{w.last} (+{w.context}) <CallLink base={callsBase} callKey={w.callKey} />
                          </span>
                        ))}
                      </li>
                    </ul>
                  </div>
                ) : null}
                {bgs.length ? (
                  <div className="mt-3 text-sm">
                    <div className="font-medium">Background updated</div>
                    {bgs.map((b) => (
                      <div key={b.id}>
                        <span className="font-mono text-xs">{b.content.aspect}</span>: {b.content.text}{" "}
                        <CallLink base={callsBase} callKey={b.content.callKey} />
                      </div>
                    ))}
                  </div>
                ) : null}
                {outs.length ? (
                  <div className="mt-3 text-sm">
                    <div className="font-medium">Topic outlines (visible from seq {outs[0].validFromSeq})</div>
                    {outs.map((o) => (
                      <OutlineCard key={o.id} o={o.content} callsBase={callsBase} />
                    ))}
                  </div>
                ) : null}
              </details>
            );
          })}
        </div>
      </section>

      <section data-testid="background">
        <h2 className="mb-3 text-lg font-semibold">Background (M_B) as it changed</h2>
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="p-1">aspect</th>
              <th className="p-1">from seq</th>
              <th className="p-1">until</th>
              <th className="p-1">summary</th>
              <th className="p-1" />
            </tr>
          </thead>
          <tbody>
            {backgrounds.map((b) => (
              <tr key={b.id} className="border-t border-slate-100">
                <td className="p-1 font-mono text-xs">{b.content.aspect}</td>
                <td className="p-1">{b.validFromSeq}</td>
                <td className="p-1">{b.validToSeq ?? "now"}</td>
                <td className="p-1">{b.content.text}</td>
                <td className="p-1">
                  <CallLink base={callsBase} callKey={b.content.callKey} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section data-testid="principles">
        <h2 className="mb-3 text-lg font-semibold">Principles (M_P)</h2>
        <div className="grid gap-3 md:grid-cols-2">
          {current.map((p) => (
            <div key={p.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <div className="font-medium">{p.content.general_requirement}</div>
              <div className="text-slate-700">{p.content.principle}</div>
              <div className="mt-1 text-xs text-slate-500">
                {p.key} · from seq {p.validFromSeq} · {p.content.members.length} members{" "}
                <span className="inline-flex flex-wrap gap-x-2">
                  {p.content.callKeys.map((k, i) => (
                    <CallLink key={k} base={callsBase} callKey={k} label={`call ${i + 1}`} />
                  ))}
                </span>
              </div>
              <ul className="mt-2 list-disc pl-5 text-xs">
                {p.content.members.map((m) => (
                  <li key={m}>
                    <span className="font-mono">{m}</span> {outlineByKey.get(m)?.content.requirement}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}

function OutlineCard({ o, callsBase }: { o: TopicOutlineEntry; callsBase: string }) {
  return (
    <div className="mt-2 rounded border border-slate-200 p-2" data-testid="outline">
      <div className="flex flex-wrap gap-x-2 text-xs text-slate-500">
        <span>
          turns {o.turn_span[0]}–{o.turn_span[1]}
        </span>
        <CallLink base={callsBase} callKey={o.callKey} label="outline call" />
        <CallLink base={callsBase} callKey={o.refineCallKey} label="rewrite call" />
      </div>
      <div>
        <span className="font-medium">Requirement:</span> {o.requirement}
      </div>
      {o.originalRequirement !== o.requirement ? <div className="text-xs text-slate-500">extracted: {o.originalRequirement}</div> : null}
      <ul className="list-disc pl-5">
        {o.solution_list.map((s, i) => (
          <li key={i}>
            {s.solution}{" "}
            <span className="text-xs text-slate-500">
              ({s.feedback_type}: {s.user_feedback})
            </span>
          </li>
        ))}
      </ul>
      {o.preference ? (
        <div>
          <span className="font-medium">Preference:</span> {o.preference}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Other methods' memories, generically: kind / key / content per entry, with validity and the calls
 * it was made from, each labelled with what the call did (`purposes`: cache key → ledger purpose).
 */
export function GenericMemoryTable({
  method,
  entries,
  callsBase,
  purposes = {},
}: {
  method: string;
  entries: InspectorEntry[];
  callsBase: string;
  purposes?: Record<string, string>;
}) {
  // Session by session, in the order the builder wrote them.
  entries = [...entries].sort(byWriteOrder);
  return (
    <table className="w-full text-sm" data-testid="generic-memory">
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="p-1">written in session</th>
          <th className="p-1">kind</th>
          <th className="p-1">key</th>
          <th className="p-1">seq</th>
          <th className="p-1">content</th>
          <th className="p-1">model calls</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} className="border-t border-slate-100 align-top">
            <td className="p-1 font-mono text-xs">{e.session ?? ""}</td>
            <td className="p-1 font-mono text-xs">{e.kind}</td>
            <td className="p-1 font-mono text-xs">{e.key}</td>
            <td className="p-1 text-xs">
              {e.validFromSeq}–{e.validToSeq ?? ""}
            </td>
            <td className="p-1">{renderEntry(method, e.kind, e.content)}</td>
            <td className="p-1">
              {(e.callKeys ?? []).map((k, i, all) => (
                <div key={k}>
                  <CallLink
                    base={callsBase}
                    callKey={k}
                    label={callLabel(method, purposes[k]) ?? (all.length > 1 ? `call ${i + 1}` : "call")}
                  />
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "conditionmem.record" → "record call" inside a ConditionMem memory; another method's purpose is shown whole. */
function callLabel(method: string, purpose: string | undefined): string | null {
  if (!purpose) return null;
  return `${purpose.startsWith(`${method}.`) ? purpose.slice(method.length + 1) : purpose} call`;
}
