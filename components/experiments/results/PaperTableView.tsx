import { cellParts } from "@/lib/experiments/paper-table/cell-text";
import type { PaperTable, Section } from "@/lib/experiments/paper-table/types";

const SECTION_TONE: Record<Section["kind"], string> = {
  run: "",
  reported: "text-slate-600",
  difference: "text-slate-500",
  reference: "text-slate-500 bg-slate-50",
};

/** One paper table as the paper lays it out: column groups, the run's rows, the published rows and the difference; notes as its caption. */
export function PaperTableView({ table: t, downloads }: { table: PaperTable; downloads: (table: string) => React.ReactNode }) {
  const lead = t.withModel ? 2 : 1;
  const width = lead + t.columns.length;
  return (
    <figure className="mb-6" data-testid={`paper-table-${t.id}`}>
      <div className="mb-1 flex items-baseline justify-between gap-3">
        <h3 className="font-semibold">{t.title}</h3>
        <div className="flex shrink-0 gap-1 text-xs">{downloads(t.id)}</div>
      </div>
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="w-full text-[13px] tabular-nums">
          <thead className="text-xs text-slate-600">
            {t.groups.some((g) => g.label) ? (
              <tr>
                <th colSpan={lead} />
                {t.groups.map((g, i) => (
                  <th
                    key={i}
                    colSpan={g.span}
                    className={`px-2 pt-2 text-center font-medium ${g.label ? "border-b border-slate-300" : ""}`}
                  >
                    {g.label}
                  </th>
                ))}
              </tr>
            ) : null}
            <tr className="border-b border-slate-400">
              {t.withModel ? <th className="px-2 py-1 text-left font-medium">Model</th> : null}
              <th className="px-2 py-1 text-left font-medium">{t.stub}</th>
              {t.columns.map((c) => (
                <th key={c.key} className="px-2 py-1 text-right font-medium">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          {t.sections.map((s) => (
            <tbody key={s.label} className={`border-t border-slate-300 ${SECTION_TONE[s.kind]}`} data-section={s.kind}>
              <tr>
                <td colSpan={width} className="px-2 pt-1 text-xs italic text-slate-500">
                  {s.label}
                </td>
              </tr>
              {s.rows.map((r, ri) => (
                <tr key={`${r.model}-${r.method}`} data-method={r.method}>
                  {t.withModel ? (
                    <td className="px-2 py-0.5 text-xs">{ri === 0 || s.rows[ri - 1].model !== r.model ? r.model : ""}</td>
                  ) : null}
                  <td className="whitespace-nowrap px-2 py-0.5">{r.name}</td>
                  {r.cells.map((c, i) => {
                    const p = cellParts(c, t.columns[i], s.kind);
                    // The sd smaller, so that Table 2's ten columns fit a 1440 px screen.
                    const text = (
                      <>
                        {p.value}
                        {p.sd !== null ? <span className="text-[11px] text-slate-500"> ± {p.sd}</span> : null}
                      </>
                    );
                    return (
                      <td
                        key={t.columns[i].key}
                        className="whitespace-nowrap px-1.5 py-0.5 text-right"
                        data-column={t.columns[i].key}
                        data-rank={p.rank ?? undefined}
                        data-sig={p.sig ? "yes" : undefined}
                      >
                        {p.rank === 1 ? <b>{text}</b> : p.rank === 2 ? <u>{text}</u> : text}
                        {p.sig ? <sup title="significant against the reference (see the notes)">†</sup> : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
      <figcaption className="mt-1 space-y-0.5 text-xs text-slate-600">
        {t.notes.map((n, i) => (
          <p key={i}>{n}</p>
        ))}
      </figcaption>
    </figure>
  );
}
