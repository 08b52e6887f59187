/** Agreement split by guideline version (issue 43.5): the labels given under each version, among themselves. */
import type { VersionAgreement } from "@/lib/annotation/agreement-versions";
import { fmt } from "@/components/annotation/AgreementView";

export function AgreementByVersion({ versions }: { versions: VersionAgreement[] }) {
  const rows = versions.flatMap((v) => v.dimensions.map((d) => ({ version: v.version, ...d })));
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="agreement-by-version">
      <h2 className="font-semibold">By guideline version</h2>
      <p className="mb-2 text-xs text-slate-500">
        Each label counts under the version of the guidelines its annotator&apos;s page showed; the statistics compare labels of one version
        only, so n is smaller than above.
      </p>
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Version</th>
            <th className="p-1.5">Dimension</th>
            <th className="p-1.5 text-right">Labels</th>
            <th className="p-1.5 text-right">Items with 2+</th>
            <th className="p-1.5 text-right">Percent agreement</th>
            <th className="p-1.5 text-right">Fleiss κ</th>
            <th className="p-1.5 text-right">Krippendorff α</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.version}-${r.key}`} className="border-t border-slate-100" data-testid={`version-${r.version}-${r.key}`}>
              <td className="p-1.5">v{r.version}</td>
              <td className="p-1.5">{r.title}</td>
              <td className="p-1.5 text-right tabular-nums">{r.labels}</td>
              <td className="p-1.5 text-right tabular-nums">{r.pairedItems}</td>
              <td className="p-1.5 text-right tabular-nums">{fmt(r.percentAgreement)}</td>
              <td className="p-1.5 text-right tabular-nums">{fmt(r.fleissKappa)}</td>
              <td className="p-1.5 text-right tabular-nums">{fmt(r.krippendorffAlpha)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
