/** Renders item content as given: text, lists, key/value objects and dialogues ([{role, content}]). */
type Turn = { role: string; content: string; action?: string };

const isTurns = (v: unknown): v is Turn[] =>
  Array.isArray(v) && v.length > 0 && v.every((t) => t && typeof t === "object" && "role" in t && "content" in t);

export function Dialogue({ turns }: { turns: Turn[] }) {
  return (
    <ol className="space-y-2">
      {turns.map((t, i) => (
        <li key={i} className={`flex ${t.role === "user" ? "justify-start" : "justify-end"}`}>
          <div
            className={`max-w-[85%] rounded-lg px-3 py-2 text-sm leading-relaxed ${t.role === "user" ? "bg-slate-100 text-slate-900" : "bg-indigo-50 text-slate-900"}`}
          >
            <span className="mb-0.5 block text-[10px] font-semibold uppercase tracking-wide text-slate-600">
              {t.role === "user" ? "User" : "Assistant"}
              {t.action ? ` · ${t.action}` : ""}
            </span>
            <span className="whitespace-pre-wrap">{t.content}</span>
          </div>
        </li>
      ))}
    </ol>
  );
}

export function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === "") return <span className="text-slate-500">—</span>;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return <span className="whitespace-pre-wrap">{String(value)}</span>;
  }
  if (isTurns(value)) return <Dialogue turns={value} />;
  if (Array.isArray(value)) {
    return (
      <ul className="list-disc space-y-0.5 pl-5">
        {value.map((v, i) => (
          <li key={i}>
            <Value value={v} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <dl className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-3 gap-y-1">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-xs font-medium text-slate-500">{keyLabel(k)}</dt>
          <dd className="text-sm">
            <Value value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Panel({ title, children, className = "" }: { title: string; children: React.ReactNode; className?: string }) {
  return (
    <section className={`min-w-0 rounded-lg border border-slate-200 bg-white p-3 wrap-break-word ${className}`}>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <div className="text-sm text-slate-800">{children}</div>
    </section>
  );
}

/**
 * A titled box whose body scrolls on its own (dialogues, logs, the user's information). Marked with
 * data-scroll-pane so the annotation queue can move between panes and scroll the chosen one from the
 * keyboard (F, J/K, PageUp/PageDown); its body is focusable so the browser's own keys work in it too. Bounded from md
 * up only: on a phone a box scrolling inside the scrolling page hides most of what it holds (issue 44.2).
 */
export function ScrollPane({
  title,
  children,
  className = "",
  maxHeight = "md:max-h-[calc(100vh-17rem)]",
}: {
  title: string;
  children: React.ReactNode;
  className?: string;
  maxHeight?: string;
}) {
  return (
    <section
      data-scroll-pane={title}
      aria-label={title}
      className={`group min-w-0 rounded-lg border border-slate-200 bg-white focus:outline-none data-[focused=true]:border-indigo-400 data-[focused=true]:ring-2 data-[focused=true]:ring-indigo-100 ${className}`}
    >
      <h3 className="border-b border-slate-100 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {/* The box that scrolls takes the focus (not the section): axe's scrollable-region-focusable, and the
          browser's own arrow keys then scroll this box rather than the page. */}
      <div
        data-scroll-body
        tabIndex={0}
        className={`md:overflow-y-auto rounded-b-lg focus-visible:outline-2 focus-visible:outline-indigo-400 px-3 py-2 text-sm wrap-break-word text-slate-800 ${maxHeight}`}
      >
        {children}
      </div>
    </section>
  );
}

/** A stored key as a label: "health_status" → "Health status" (as the experiment's item cards show them). */
export const keyLabel = (k: string) => k.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());
