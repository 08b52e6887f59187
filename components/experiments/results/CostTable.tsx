type Ledger = {
  calls: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  cost?: number | null;
  /** Requests whose tokens are unknown: timed out, dropped, or usage the endpoint reported that was not believed. */
  usageUnknown?: number;
};

const n = (v: number) => v.toLocaleString("en-US");
const usd = (v: number | null | undefined) => (typeof v === "number" ? `$${v.toFixed(4)}` : "—");

/** What each method cost: answering (its jobs' calls) and building the memory it answered from, apart, with the totals. */
export function CostTable({
  byMethod,
  memoryByMethod,
  total,
  memoryTotal,
  names = {},
  order = [],
}: {
  byMethod: Record<string, Ledger>;
  memoryByMethod: Record<string, Ledger>;
  total: Ledger;
  memoryTotal: Ledger;
  /** Display names by method key (lib/experiments/method-choices.ts methodNames); the key when absent. */
  names?: Record<string, string>;
  /** The experiment's order of the method keys; others after, A-Z. */
  order?: string[];
}) {
  const rank = (m: string) => (order.includes(m) ? order.indexOf(m) : order.length);
  const methods = [...new Set([...Object.keys(byMethod), ...Object.keys(memoryByMethod)])].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const withCost = [total, ...Object.values(byMethod)].some((l) => typeof l.cost === "number");
  const unknown = (total.usageUnknown ?? 0) + (memoryTotal.usageUnknown ?? 0);
  const cells = (l: Ledger | undefined, part: string) =>
    l ? (
      <>
        <td className="p-2 text-right" data-part={part}>
          {n(l.calls)}
        </td>
        <td className="p-2 text-right">{n(l.cacheHits)}</td>
        <td className="p-2 text-right">
          {n(l.promptTokens)} + {n(l.completionTokens)}
        </td>
        {withCost ? <td className="p-2 text-right">{usd(l.cost)}</td> : null}
      </>
    ) : (
      <td className="p-2 text-center text-slate-500" colSpan={withCost ? 4 : 3}>
        —
      </td>
    );
  const head = (
    <>
      <th className="p-2 text-right">Calls</th>
      <th className="p-2 text-right">Cache hits</th>
      <th className="p-2 text-right">Tokens (prompt + completion)</th>
      {withCost ? <th className="p-2 text-right">Cost</th> : null}
    </>
  );
  return (
    <div>
      <p className="mb-1 text-xs text-slate-500">
        Answering: the calls of the method&apos;s items (every paid attempt, failed ones too; cache hits cost nothing). Memory build:
        building the memory versions the method answered from, once per user and shared by every task and experiment that uses them; the
        total counts each version once.
      </p>
      {unknown > 0 ? (
        <p className="mb-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800" data-testid="usage-unknown">
          {n(unknown)} request(s) with unknown usage: they timed out or were dropped, or the endpoint reported token counts that cannot be
          true (negative, not whole numbers, or more than the request could hold). Their tokens and cost are not in the table; the spend cap
          counted each reply whose usage was not believed at its worst case (the prompt&apos;s size plus the output budget). The model calls
          of each job say why.
        </p>
      ) : null}
      <table className="w-full rounded border border-slate-200 bg-white text-sm tabular-nums" data-testid="cost-table">
        <thead className="bg-slate-50 text-xs text-slate-500">
          <tr>
            <th />
            <th colSpan={withCost ? 4 : 3} className="border-b border-slate-200 p-1 text-center font-medium">
              Answering
            </th>
            <th colSpan={withCost ? 4 : 3} className="border-b border-slate-200 p-1 text-center font-medium">
              Memory build
            </th>
          </tr>
          <tr>
            <th className="p-2 text-left">Method</th>
            {head}
            {head}
          </tr>
        </thead>
        <tbody>
          {methods.map((m) => (
            <tr key={m} className="border-t border-slate-100" data-method={m}>
              <td className="p-2 font-medium">{names[m] ?? m}</td>
              {cells(byMethod[m], "answering")}
              {cells(memoryByMethod[m], "memory-build")}
            </tr>
          ))}
          <tr className="border-t border-slate-300 font-medium" data-method="total">
            <td className="p-2">Total</td>
            {cells(total, "answering")}
            {cells(memoryTotal, "memory-build")}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
