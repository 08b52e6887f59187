/** Progress per annotator: done, skipped, total and the mean time per labelled item. */
import type { annotatorProgress } from "@/lib/annotation";

export function AnnotatorProgress({ campaignId: id, progress }: { campaignId: number; progress: ReturnType<typeof annotatorProgress> }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-semibold">Progress per annotator</h2>
      <table className="w-full text-sm" data-testid="progress-table">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Annotator</th>
            <th className="p-1.5">Done</th>
            <th className="p-1.5">Skipped</th>
            <th className="p-1.5">Total</th>
            <th className="p-1.5">Mean time per item</th>
          </tr>
        </thead>
        <tbody>
          {progress.map((p) => (
            <tr key={p.annotatorId} className="border-t border-slate-100">
              <td className="p-1.5">{p.email}</td>
              <td className="p-1.5 tabular-nums">{p.done}</td>
              <td className="p-1.5 tabular-nums">{p.skipped}</td>
              <td className="p-1.5 tabular-nums">{p.total}</td>
              <td className="p-1.5 tabular-nums">{p.done ? `${(p.msSpent / p.done / 1000).toFixed(1)} s` : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-500">
        Same numbers on the command line: <code>pal metrics agreement --campaign {id} --json</code>,{" "}
        <code>pal campaign export --campaign {id}</code>.
      </p>
    </section>
  );
}
