/** MemoryBank's forgetting, session by session: pieces stored, kept and forgotten, and what each arrival forgot. */
import type { RetentionRow } from "@/lib/assistants/memorybank/retention";

export function MemoryBankRetention({ rows, sessions }: { rows: RetentionRow[]; sessions: Array<{ seq: number; key: string }> }) {
  const keyOf = (seq: number) => sessions.find((s) => s.seq === seq)?.key ?? String(seq);
  return (
    <section className="mb-6" aria-label="Forgetting by session" data-testid="memorybank-retention">
      <h2 className="mb-2 text-sm font-semibold">Forgetting, session by session</h2>
      <table className="text-xs">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="p-1">session</th>
            <th className="p-1 text-right">pieces stored</th>
            <th className="p-1 text-right">kept</th>
            <th className="p-1 text-right">forgotten</th>
            <th className="p-1 text-right">earlier pieces forgotten at its arrival</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seq} className="border-t border-slate-100">
              <td className="p-1">{keyOf(r.seq)}</td>
              <td className="p-1 text-right">{r.stored}</td>
              <td className="p-1 text-right">{r.kept}</td>
              <td className="p-1 text-right">{r.forgotten}</td>
              <td className="p-1 text-right">{r.forgottenAtArrival}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
