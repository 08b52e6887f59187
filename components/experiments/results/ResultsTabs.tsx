"use client";
import { useState, type ReactNode } from "react";

/** The results' views (paper table, all metrics, costs), one shown at a time; the first is open. */
export function ResultsTabs({ tabs }: { tabs: Array<{ id: string; label: string; content: ReactNode }> }) {
  const [open, setOpen] = useState(tabs[0]?.id);
  return (
    <section className="mb-4" data-testid="results">
      <div role="tablist" className="mb-2 flex gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            aria-selected={open === t.id}
            className={`-mb-px rounded-t border px-3 py-1 text-sm ${
              open === t.id
                ? "border-slate-200 border-b-white bg-white font-medium"
                : "border-transparent text-slate-500 hover:text-indigo-700"
            }`}
            onClick={() => setOpen(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div key={t.id} role="tabpanel" hidden={open !== t.id} data-testid={`results-tab-${t.id}`}>
          {t.content}
        </div>
      ))}
    </section>
  );
}
