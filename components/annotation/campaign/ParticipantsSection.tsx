/**
 * A link campaign's crowd side for its researchers: the participant link (with Prolific's parameters),
 * the settings, and per participant: status, items, gold accuracy, median seconds, too-fast answers,
 * and exclusion (labels kept and marked, out of agreement).
 */
import type { ParticipantQuality, CrowdSettings } from "@/lib/annotation/participants";
import { ExcludeParticipantForm, type ExcludeAction } from "./ExcludeParticipantForm";

type Props = {
  campaignId: number;
  link: string;
  perItem: number;
  settings: CrowdSettings;
  rows: ParticipantQuality[];
  exclude: ExcludeAction;
};

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

export function ParticipantsSection({ campaignId, link, perItem, settings: s, rows, exclude }: Props) {
  const prolific = `${link}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
  const flagged = (r: ParticipantQuality) => r.tooFast > 0 || (r.goldAccuracy !== null && r.goldAccuracy < s.minGoldAccuracy);
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="participants-section">
      <h2 className="mb-1 font-semibold">Participants</h2>
      <p className="text-sm text-slate-600">
        Study URL for Prolific:{" "}
        <code className="break-all rounded bg-slate-100 px-1 text-xs" data-testid="participant-link">
          {prolific}
        </code>
      </p>
      <p className="mt-1 text-xs text-slate-500">
        k = {perItem} labels per item, served least-labelled first · hold {s.holdSeconds} s ·{" "}
        {s.quota ? `${s.quota} items each` : "no quota"} · {s.maxParticipants ? `at most ${s.maxParticipants} participants` : "no cap"} ·
        gold {Math.round(s.goldRate * 100)}%, screen-out below {pct(s.minGoldAccuracy)} · too fast under {s.minSeconds} s · completion code{" "}
        {s.completionCode ?? "—"}, screen-out code {s.screenoutCode ?? "—"}
      </p>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">Nobody has joined yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-sm" data-testid="participants-table">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="p-1.5">Participant</th>
                <th className="p-1.5">Prolific ID</th>
                <th className="p-1.5">Status</th>
                <th className="p-1.5">Items</th>
                <th className="p-1.5">Gold</th>
                <th className="p-1.5">Median time</th>
                <th className="p-1.5">Too fast</th>
                <th className="p-1.5">Exclusion</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.participantId} className={`border-t border-slate-100 ${r.excluded ? "text-slate-500" : ""}`}>
                  <td className="p-1.5 font-mono text-xs">{r.code}</td>
                  <td className="p-1.5 font-mono text-xs">{r.prolificPid}</td>
                  <td className="p-1.5">{r.status}</td>
                  <td className="p-1.5 tabular-nums">{r.items}</td>
                  <td
                    className={`p-1.5 tabular-nums ${flagged(r) && r.goldAccuracy !== null && r.goldAccuracy < s.minGoldAccuracy ? "text-rose-700" : ""}`}
                  >
                    {r.goldChecked ? `${pct(r.goldAccuracy)} (${r.goldCorrect}/${r.goldChecked})` : "—"}
                  </td>
                  <td className="p-1.5 tabular-nums">{r.medianSeconds === null ? "—" : `${r.medianSeconds.toFixed(1)} s`}</td>
                  <td className={`p-1.5 tabular-nums ${r.tooFast ? "text-amber-700" : ""}`}>{r.tooFast}</td>
                  <td className="p-1.5">
                    <ExcludeParticipantForm
                      campaignId={campaignId}
                      participantId={r.participantId}
                      excluded={r.excluded}
                      reason={r.excludedReason}
                      action={exclude}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
