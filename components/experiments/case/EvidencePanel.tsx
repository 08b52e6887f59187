import type { EvidenceView } from "@/lib/experiments/item-evidence";

/**
 * The sessions holding a benchmark item's evidence, beside the methods' answers: evidence turns highlighted, and
 * under each turn the shown methods whose retrieved context held it.
 */
export function EvidencePanel({ view, names }: { view: EvidenceView; names: Record<string, string> }) {
  const name = (m: string) => names[m] ?? m;
  return (
    <section className="mb-4 rounded-lg border border-slate-200 bg-white p-3" data-testid="evidence-panel" aria-label="Evidence">
      <h2 className="font-semibold">Evidence</h2>
      <p className="mb-2 text-xs text-slate-500">
        {view.evidence.length ? `The item's evidence: ${view.evidence.join(", ")}.` : "The item names no evidence."}{" "}
        <span className="rounded bg-amber-100 px-1 text-amber-900">Highlighted</span> turns are evidence;{" "}
        {view.retrievers.length
          ? `a tag names each shown method whose retrieved context held the turn (${view.retrievers.map(name).join(", ")}).`
          : "none of the shown methods retrieves dialogue turns (their memories hold notes)."}
      </p>
      {view.sessions.map((s) => (
        <div key={s.seq} className="mb-3" data-testid="evidence-session">
          <h3 className="text-sm font-medium text-slate-700">
            {s.label}
            {s.date ? <span className="ml-2 text-xs font-normal text-slate-500">{s.date}</span> : null}
          </h3>
          <ol className="mt-1 space-y-1 text-sm">
            {s.turns.map((u) => (
              <li
                key={u.position}
                className={`rounded px-2 py-1 ${u.evidence ? "bg-amber-100 ring-1 ring-amber-300" : "text-slate-600"}`}
                data-testid={u.evidence ? "evidence-turn" : undefined}
              >
                <span className="mr-1 font-mono text-xs text-slate-500">{u.diaId ?? `#${u.position + 1}`}</span>
                <span className="font-medium">{u.speaker}:</span> {u.text}
                {u.retrievedBy.length ? (
                  <span className="ml-2 inline-flex flex-wrap gap-1 align-middle">
                    {u.retrievedBy.map((m) => (
                      <span key={m} className="rounded bg-indigo-100 px-1 text-xs text-indigo-800" data-testid="retrieved-by">
                        retrieved by {name(m)}
                      </span>
                    ))}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ))}
      {view.more ? <p className="text-xs text-slate-500">{view.more} more evidence sessions not shown.</p> : null}
    </section>
  );
}
