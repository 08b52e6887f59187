import Link from "next/link";
import { fmtCount, fmtMinute, sessionHref, topicHref } from "@/lib/datasets/browse/format";

export type TimelineSample = {
  sampleKey: string;
  split: "history" | "query" | string;
  dialogueTimestamp: string;
  logCount: number;
  turnCount: number;
  topicCount: number;
  /** The session's topics (their vague queries), for a glance and a deep link each. */
  topics?: Array<{ topicKey: string; userQuery: string }>;
};

function Split({ split }: { split: string }) {
  return split === "query" ? (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-amber-900 ring-1 ring-inset ring-amber-300">
      query · evaluation
    </span>
  ) : (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-slate-600 ring-1 ring-inset ring-slate-200">
      history
    </span>
  );
}

/**
 * A user's sessions in order: history (context only) then query (the evaluation samples), each with
 * its date and counts, linking to the session. Only counts: no logs are loaded for this list.
 */
export function SessionTimeline({ datasetId, userKey, samples }: { datasetId: number; userKey: string; samples: TimelineSample[] }) {
  const firstQuery = samples.findIndex((s) => s.split === "query");
  return (
    <section aria-labelledby="timeline-title" data-testid="timeline" className="rounded-lg border border-slate-200 bg-white">
      <header className="flex items-baseline justify-between border-b border-slate-100 px-4 py-2">
        <h2 id="timeline-title" className="text-sm font-semibold text-slate-800">
          Sessions <span className="font-normal text-slate-500">({samples.length})</span>
        </h2>
        <p className="text-xs text-slate-500">
          {samples.filter((s) => s.split === "history").length} history · {samples.filter((s) => s.split === "query").length} query
        </p>
      </header>
      <ol className="relative px-4 py-2">
        {samples.map((s, i) => (
          <li key={s.sampleKey} data-testid="timeline-item" data-split={s.split}>
            {i === firstQuery ? (
              <p className="my-2 border-t border-dashed border-amber-300 pt-2 text-[11px] font-semibold uppercase tracking-wide text-amber-800">
                Query month: evaluation samples
              </p>
            ) : null}
            <Link
              href={sessionHref(datasetId, userKey, s.sampleKey)}
              className={`group flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border-l-4 px-3 py-1.5 text-sm hover:bg-indigo-50/50 focus-visible:outline-2 focus-visible:outline-indigo-500 ${s.split === "query" ? "border-amber-400 bg-amber-50/40" : "border-slate-200"}`}
            >
              <time className="w-36 font-mono text-xs text-slate-600">{fmtMinute(s.dialogueTimestamp)}</time>
              <span className="font-mono text-xs font-medium text-indigo-700 group-hover:underline">{s.sampleKey}</span>
              <Split split={s.split} />
              <span className="ml-auto flex gap-3 text-xs tabular-nums text-slate-500">
                <span>{fmtCount(s.logCount)} logs</span>
                <span>{fmtCount(s.turnCount)} turns</span>
                <span>
                  {fmtCount(s.topicCount)} topic{s.topicCount === 1 ? "" : "s"}
                </span>
              </span>
            </Link>
            {s.topics?.length ? (
              <ul className="mb-1 ml-[9.5rem] flex flex-wrap gap-1 pl-3">
                {s.topics.map((t) => (
                  <li key={t.topicKey}>
                    <Link
                      href={topicHref(datasetId, userKey, s.sampleKey, t.topicKey)}
                      title={t.userQuery}
                      className="block max-w-[22rem] truncate rounded-full bg-slate-50 px-2 py-0.5 text-[11px] text-slate-600 ring-1 ring-inset ring-slate-200 hover:bg-indigo-50 hover:text-indigo-800"
                    >
                      {t.userQuery}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
