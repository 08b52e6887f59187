/**
 * A link campaign's crowd side for its researchers: the participant link (with Prolific's parameters),
 * the settings, and per participant: status, items, gold accuracy, attention checks, median seconds,
 * too-fast answers, and exclusion (labels kept and marked, out of agreement). The table is the cached one
 * (lib/annotation/participants/quality-cache.ts), shown with its age.
 */
import type { ParticipantQuality, CrowdSettings, QualitySnapshot } from "@/lib/annotation/participants";
import { ReportAge } from "../ReportAge";
import { ExcludeParticipantForm, type ExcludeAction } from "./ExcludeParticipantForm";

type Props = {
  campaignId: number;
  link: string;
  perItem: number;
  settings: CrowdSettings;
  snapshot: QualitySnapshot;
  exclude: ExcludeAction;
};

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

export function ParticipantsSection({ campaignId, link, perItem, settings: s, snapshot, exclude }: Props) {
  const prolific = `${link}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
  const rows = snapshot.rows ?? [];
  const lowGold = (r: ParticipantQuality) => r.goldAccuracy !== null && r.goldAccuracy < s.minGoldAccuracy;
  const failsAttention = (r: ParticipantQuality) => r.attentionFailed > s.maxAttentionFails;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="participants-section">
      <div className="mb-1 flex flex-wrap items-baseline gap-x-3">
        <h2 className="font-semibold">Participants</h2>
        <ReportAge
          ageMs={snapshot.ageMs}
          current={snapshot.current}
          error={snapshot.error}
          testId="participants-age"
          what="the participants table"
        />
      </div>
      <p className="text-sm text-slate-600">
        Study URL for Prolific:{" "}
        <code className="break-all rounded bg-slate-100 px-1 text-xs" data-testid="participant-link">
          {prolific}
        </code>
      </p>
      <p className="mt-1 text-xs text-slate-500">
        k = {perItem} labels per item, served {s.order === "most-disagreement" ? "most-disagreement" : "least-labelled"} first · hold{" "}
        {s.holdSeconds} s · {s.quota ? `${s.quota} items each` : "no quota"} ·{" "}
        {s.maxParticipants ? `at most ${s.maxParticipants} participants` : "no cap"} · gold {Math.round(s.goldRate * 100)}%, screen-out
        below {pct(s.minGoldAccuracy)} · attention checks{" "}
        {s.attentionRate > 0 ? `${Math.round(s.attentionRate * 100)}%, screen-out above ${s.maxAttentionFails} failed` : "off"} · too fast
        under {s.minSeconds} s · completion code {s.completionCode ?? "—"}, screen-out code {s.screenoutCode ?? "—"}
      </p>
      {snapshot.rows === null ? (
        <p className="mt-3 text-sm text-slate-500">Reading the participants…</p>
      ) : rows.length === 0 ? (
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
                <th className="p-1.5">Attention</th>
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
                  <td className={`p-1.5 tabular-nums ${lowGold(r) ? "text-rose-700" : ""}`}>
                    {r.goldChecked ? `${pct(r.goldAccuracy)} (${r.goldCorrect}/${r.goldChecked})` : "—"}
                  </td>
                  <td className={`p-1.5 tabular-nums ${failsAttention(r) ? "text-rose-700" : ""}`} data-testid="attention-cell">
                    {r.attentionChecked ? `${r.attentionChecked - r.attentionFailed}/${r.attentionChecked} passed` : "—"}
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
