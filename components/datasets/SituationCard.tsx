import { Value } from "./ProfileCard";

const LABELS: Record<string, string> = {
  situation: "Situation",
  start_timestamp: "From",
  end_timestamp: "To",
  requirement_ids: "Requirement types of the topics",
};

/** situation.json's entry for a session (optional on import): the story behind the dialogue. */
export function SituationCard({ situation }: { situation: Record<string, unknown> | null }) {
  return (
    <section aria-labelledby="situation-title" data-testid="situation" className="rounded-lg border border-slate-200 bg-white">
      <header className="border-b border-slate-100 px-4 py-2">
        <h2 id="situation-title" className="text-sm font-semibold text-slate-800">
          Situation
        </h2>
      </header>
      {situation && Object.keys(situation).length ? (
        <div className="space-y-2 px-4 py-3 text-sm">
          {typeof situation.situation === "string" ? (
            <p className="max-w-4xl leading-relaxed text-slate-800">{situation.situation}</p>
          ) : null}
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-600">
            {Object.entries(situation)
              .filter(([k, v]) => !(k === "situation" && typeof v === "string"))
              .map(([k, v]) => (
                <div key={k} className="flex gap-1">
                  <dt className="font-semibold">{LABELS[k] ?? k}:</dt>
                  <dd>{Array.isArray(v) && v.every((x) => typeof x === "string") ? v.join(", ") : <Value v={v} />}</dd>
                </div>
              ))}
          </dl>
        </div>
      ) : (
        <p className="px-4 py-3 text-sm text-slate-500">No situation was imported for this session (situation.json is optional).</p>
      )}
    </section>
  );
}
