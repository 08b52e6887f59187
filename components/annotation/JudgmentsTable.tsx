import { Value } from "./Value";

type PairJudgment = { order: "AB" | "BA"; scoreA: number; scoreB: number; replicate?: number; analysis?: unknown };

const isPair = (j: unknown): j is PairJudgment =>
  typeof j === "object" &&
  j !== null &&
  ((j as PairJudgment).order === "AB" || (j as PairJudgment).order === "BA") &&
  typeof (j as PairJudgment).scoreA === "number";

function text(a: unknown): string {
  if (typeof a === "string") return a;
  if (a && typeof a === "object" && "overall" in a) return String((a as { overall: unknown }).overall);
  return a === undefined ? "" : JSON.stringify(a);
}

/** A judge's individual judgments: a table of both orders' scores (for side A / B) when they are pairwise ones. */
export function JudgmentsTable({ judgments }: { judgments: unknown[] }) {
  if (!judgments.every(isPair)) return <Value value={judgments} />;
  return (
    <table className="mt-1 text-xs" data-testid="judgments">
      <thead className="text-left text-slate-500">
        <tr>
          <th className="pr-2">Shown first</th>
          <th className="pr-2">Score A</th>
          <th className="pr-2">Score B</th>
          <th>Analysis</th>
        </tr>
      </thead>
      <tbody>
        {judgments.map((j, i) => (
          <tr key={i} className="border-t border-slate-100 align-top">
            <td className="pr-2">
              {j.order === "AB" ? "A" : "B"}
              {j.replicate !== undefined ? ` · #${j.replicate}` : ""}
            </td>
            <td className="pr-2 tabular-nums">{j.scoreA}</td>
            <td className="pr-2 tabular-nums">{j.scoreB}</td>
            <td>{text(j.analysis)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
