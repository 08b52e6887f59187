/** A HiCUPID A/B campaign's Figure 2 for one dimension: reference win / tie / model win per source, and S. */
import type { figure2 } from "@/lib/annotation";
import { fmt } from "@/components/annotation/AgreementView";

export function Figure2Bars({ f }: { f: ReturnType<typeof figure2>[number] }) {
  return (
    <div className="rounded border border-slate-200 p-3" data-testid={`figure2-${f.dimension}`}>
      <h3 className="font-medium">{f.title}: reference win / tie / model win and S</h3>
      {f.rows.map((r) => (
        <div key={r.source} className="mt-1 flex items-center gap-2 text-xs">
          <span className="w-32 truncate">
            {r.source} (n = {r.n})
          </span>
          <div className="flex h-4 w-80 overflow-hidden rounded">
            <div className="bg-sky-500" style={{ width: `${r.referenceWin * 100}%` }} title="reference wins" />
            <div className="bg-purple-400" style={{ width: `${r.tie * 100}%` }} title="tie" />
            <div className="bg-rose-500" style={{ width: `${r.modelWin * 100}%` }} title="model wins" />
          </div>
          <span className="tabular-nums">
            {fmt(r.referenceWin * 100, 1)}% / {fmt(r.tie * 100, 1)}% / {fmt(r.modelWin * 100, 1)}% · S = {fmt(r.score, 1)}
          </span>
        </div>
      ))}
    </div>
  );
}
