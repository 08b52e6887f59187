/**
 * Readable views of the baselines' memory entries in the generic memory table, registered per
 * method and entry kind in one place. A renderer returns null when the content does not have the
 * shape it expects; the table then shows the content as labelled fields (`LabelledFields`), never JSON.
 */
import type { ReactNode } from "react";
import { readableFields } from "@/lib/tasks/readable";

type Renderer = (content: unknown) => ReactNode | null;

const str = (x: unknown): x is string => typeof x === "string";
const obj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** A text with an optional small label above it. */
function Text({ label, text }: { label?: string; text: string }) {
  return (
    <div className="text-xs">
      {label ? <div className="text-slate-500">{label}</div> : null}
      <div className="whitespace-pre-wrap">{text}</div>
    </div>
  );
}

/** RecurSum: the running summary (of dialogues or of logs). */
const summary: Renderer = (c) =>
  obj(c) && str(c.summary) ? <Text label={`summary after session ${Number(c.seq) + 1}`} text={c.summary} /> : null;

/** ConditionMem: a remembered user input with its summary and note. */
const record: Renderer = (c) =>
  obj(c) && str(c.summary) && str(c.note) ? (
    <div className="space-y-1 text-xs">
      {str(c.userInput) ? <Text label="user input" text={c.userInput} /> : null}
      <Text label="summary" text={c.summary} />
      <Text label="note" text={c.note} />
    </div>
  ) : null;

/** LD-Agent: an event summary with its nouns. */
const ldEvent: Renderer = (c) =>
  obj(c) && str(c.summary) ? (
    <div className="text-xs">
      <Text text={c.summary} />
      {Array.isArray(c.nouns) && c.nouns.length ? <div className="text-slate-500">nouns: {c.nouns.join(", ")}</div> : null}
    </div>
  ) : null;

/** LD-Agent: persona traits extracted in one session. */
const persona: Renderer = (c) =>
  Array.isArray(c) && c.every((t) => obj(t) && str(t.trait)) ? (
    <ul className="list-disc pl-4 text-xs">
      {(c as Array<{ trait: string; turn?: number }>).map((t, i) => (
        <li key={i}>{t.trait}</li>
      ))}
    </ul>
  ) : null;

/** MemoryBank: plain-text portraits and summaries, and turn and event pieces with their memory strength. */
const plain: Renderer = (c) => (str(c) ? <Text text={c} /> : null);
const day = (ms: unknown) => (typeof ms === "number" ? new Date(ms).toISOString().slice(0, 10) : null);
const piece: Renderer = (c) => {
  if (!obj(c) || !str(c.text)) return null;
  const facts = [
    str(c.date) ? c.date : null,
    typeof c.strength === "number" ? `strength ${c.strength}` : null,
    day(c.lastRecalledAt) ? `last recalled ${day(c.lastRecalledAt)}` : null,
    day(c.forgottenAt) ? `forgotten ${day(c.forgottenAt)}` : null,
  ].filter(Boolean);
  return (
    <div className={`text-xs ${c.forgottenAt ? "text-slate-500 line-through decoration-slate-300" : ""}`}>
      <div className="text-slate-500 no-underline">{facts.join(" · ")}</div>
      <div className="whitespace-pre-wrap">{c.text}</div>
    </div>
  );
};

/** A session log as the data set has it: its time and text, one line. */
const logLine: Renderer = (c) =>
  obj(c) && str(c.content) ? (
    <div className="text-xs">
      {str(c.timestamp) ? <span className="mr-2 text-slate-500">{c.timestamp}</span> : null}
      {c.content}
    </div>
  ) : null;

export const ENTRY_RENDERERS: Record<string, Record<string, Renderer>> = {
  recursum: { "dialogue-summary": summary, "log-summary": summary },
  conditionmem: { record },
  "ld-agent": { event: ldEvent, "persona-user": persona, "persona-assistant": persona },
  memorybank: { log: logLine, turn: piece, event: piece, "daily-portrait": plain, "global-summary": plain, "global-portrait": plain },
};

/** Any content as "Label: text" lines (nested keys as "Parent › Child"): the fallback for a shape no renderer knows. */
export function LabelledFields({ value }: { value: unknown }) {
  if (str(value)) return <Text text={value} />;
  const fields = readableFields(value);
  if (!fields.length) return <span className="text-xs text-slate-500">—</span>;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-2 text-xs" data-testid="entry-fields">
      {fields.map((f, i) => (
        <div key={i} className="contents">
          <dt className="text-slate-500">{f.label}</dt>
          <dd className="whitespace-pre-wrap">{f.text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The method's view of an entry, or its content as labelled fields. */
export function renderEntry(method: string, kind: string, content: unknown): ReactNode {
  return ENTRY_RENDERERS[method]?.[kind]?.(content) ?? <LabelledFields value={content} />;
}
