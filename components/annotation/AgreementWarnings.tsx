/** The agreement report's warnings (lib/agreement/warnings.ts): figures that are computed but easy to over-read. */
import type { AgreementWarning } from "@/lib/agreement/warnings";

export function AgreementWarnings({ warnings, titles }: { warnings: AgreementWarning[]; titles: Record<string, string> }) {
  if (!warnings.length) return null;
  return (
    <ul className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="agreement-warnings">
      {warnings.map((w, i) => (
        <li key={i} data-kind={w.kind}>
          <b>{w.dimension === "*" ? "Every dimension" : (titles[w.dimension] ?? w.dimension)}:</b> {w.message}
        </li>
      ))}
    </ul>
  );
}
