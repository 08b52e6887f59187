import Link from "next/link";
import { dialogueAnchor, userHref } from "@/lib/datasets/browse/format";
import { Value } from "./ProfileCard";

export type QaView = {
  id: number;
  userKey: string;
  split: string;
  type: string;
  question: string;
  personalizedAnswer: string;
  generalAnswer: string;
  dialogueIds: string[];
  metadata: unknown;
};

const TYPE_STYLE: Record<string, string> = {
  persona: "bg-violet-50 text-violet-800 ring-violet-200",
  profile: "bg-sky-50 text-sky-800 ring-sky-200",
  schedule: "bg-amber-50 text-amber-800 ring-amber-200",
};

/** One HiCUPID QA item: question, personalized and general answers side by side, metadata, relevant dialogues. */
export function QaItem({ datasetId, qa }: { datasetId: number; qa: QaView }) {
  return (
    <article data-testid="qa-item" data-type={qa.type} data-split={qa.split} className="rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2 text-xs">
        <span
          className={`rounded px-1.5 py-0.5 font-semibold ring-1 ring-inset ${TYPE_STYLE[qa.type] ?? "bg-slate-100 text-slate-700 ring-slate-200"}`}
        >
          {qa.type}
        </span>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">{qa.split}</span>
        <span className="text-slate-500">
          user{" "}
          <Link className="font-mono text-indigo-700 hover:underline" href={userHref(datasetId, qa.userKey)}>
            {qa.userKey}
          </Link>
        </span>
        <span className="ml-auto font-mono text-slate-500">#{qa.id}</span>
      </header>
      <div className="space-y-3 px-4 py-3">
        <p className="text-sm font-medium leading-relaxed text-slate-900">
          <span className="mr-1 text-slate-500">Q</span>
          {qa.question}
        </p>
        <div className="grid gap-2 md:grid-cols-2">
          <div className="rounded-md border border-emerald-200 bg-emerald-50/50 p-2">
            <p className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-emerald-800">Personalized answer</p>
            <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800">{qa.personalizedAnswer}</p>
          </div>
          <div className="rounded-md border border-slate-200 bg-slate-50 p-2">
            <p className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600">General answer</p>
            <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800">{qa.generalAnswer}</p>
          </div>
        </div>
        <div className="grid gap-2 text-xs md:grid-cols-[2fr_1fr]">
          <div>
            <p className="mb-0.5 font-semibold uppercase tracking-wide text-slate-500">Metadata (judge only)</p>
            <div className="text-slate-700">
              <Value v={qa.metadata} />
            </div>
          </div>
          <div>
            <p className="mb-0.5 font-semibold uppercase tracking-wide text-slate-500">Relevant dialogues</p>
            {qa.dialogueIds.length ? (
              <ul className="flex flex-wrap gap-1">
                {qa.dialogueIds.map((d) => (
                  <li key={d}>
                    <Link
                      data-testid="qa-dialogue-link"
                      href={`${userHref(datasetId, qa.userKey)}#${dialogueAnchor(d)}`}
                      className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-indigo-700 hover:underline"
                    >
                      {d}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <span className="text-slate-500">none listed</span>
            )}
          </div>
        </div>
      </div>
    </article>
  );
}
