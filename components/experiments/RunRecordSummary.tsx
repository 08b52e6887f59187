/**
 * What the run really did, from its run record (lib/experiments/run-record.ts): each role's endpoint, the
 * model asked for and the models the endpoint said it served, the temperatures sent, and the protocol
 * audit with its age. Never today's settings.
 */
import type { RunRecord } from "@/lib/experiments/run-record";
import { auditVerdict, callsText, deviationText, mismatchText } from "@/lib/experiments/protocol-audit-text";

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function RunRecordSummary({ record }: { record: RunRecord | null }) {
  if (!record) return <p data-testid="run-record">Run record: not written yet.</p>;
  const audit = record.audit;
  return (
    <div data-testid="run-record" className="mb-1">
      <p>
        Models (as served):{" "}
        {record.roles.map((r, i) => {
          const served = r.served.map((s) => (r.served.length > 1 ? `${s.model} ×${s.calls}` : s.model)).join(" + ");
          const temps = [...new Set(r.sent.map((s) => (s.temperature === null ? "default" : String(s.temperature))))];
          return (
            <span key={r.config}>
              {i ? " · " : ""}
              {r.config} <b>{served || r.modelAsked || "unknown"}</b>
              {served && r.modelAsked && served !== r.modelAsked ? ` (asked ${r.modelAsked})` : ""}
              {r.role !== "embedding" && temps.length ? `, τ ${temps.join("/")}` : ""}
            </span>
          );
        })}
      </p>
      <p>
        Data set {record.dataset.name}
        {record.dataset.hash ? ` (${record.dataset.hash.slice(0, 12)})` : ""} · PAL Studio {record.project.version}
        {record.project.commit ? ` (${record.project.commit.slice(0, 10)})` : ""}
      </p>
      {!record.preset && record.deviationsFrom && record.deviations.length ? (
        <p data-testid="custom-deviations">
          Custom run: {record.deviations.length} deviation{record.deviations.length > 1 ? "s" : ""} from the {record.deviationsFrom} preset
          ({record.deviations.map((d) => d.path).join(", ")})
        </p>
      ) : null}
      <p data-testid="protocol-audit" className={audit && !audit.asDeclared ? "text-rose-700" : ""}>
        {audit ? (
          <>
            protocol: {auditVerdict(audit)} ({callsText(audit)}) · as of {when(record.ledgerAt ?? audit.at)}
          </>
        ) : (
          "protocol audit: when the run stops"
        )}
      </p>
      {audit && audit.mismatches.length ? (
        <div data-testid="protocol-mismatches" className="text-rose-700">
          <p className="font-medium">Unintended mismatches (sent, not asked for)</p>
          <ul className="list-disc pl-5">
            {audit.mismatches.map((m, i) => (
              <li key={i}>{mismatchText(m)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {audit?.deviations?.length ? (
        <div data-testid="protocol-deviations" className="text-amber-800">
          <p className="font-medium">Intended deviations from the {audit.preset} preset (asked for by the config)</p>
          <ul className="list-disc pl-5">
            {audit.deviations.map((d, i) => (
              <li key={i}>{deviationText(d)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {!audit && record.warnings?.length ? (
        <ul data-testid="launch-warnings" className="list-disc pl-5 text-amber-800">
          {record.warnings.map((w, i) => (
            <li key={i}>Warning: {w}</li>
          ))}
        </ul>
      ) : null}
      {audit?.warnings?.length ? (
        <ul data-testid="protocol-warnings" className="list-disc pl-5 text-amber-800">
          {audit.warnings.map((w, i) => (
            <li key={i}>Warning: {w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
