import Link from "next/link";
import { CandidateList, type Candidate } from "./CandidateList";
import { Value } from "./ProfileCard";

export type TopicRequirementType = {
  aspect: string;
  typeKey: string;
  requirementType: string | null;
  preferencePos: string[];
  preferenceNeg: string[];
};

export type TopicView = {
  topicKey: string;
  userQuery: string;
  implicitNeeds: string[];
  requirement: string;
  requirementTypeKey: string | null;
  requirementType: TopicRequirementType | null;
  solutionPos: string[];
  solutionNeg: string[];
  candidates: Candidate[];
  /** requirement_framework.json / solution_preference.json entries, when imported. */
  framework?: Record<string, unknown> | null;
  solutionPreference?: Record<string, unknown> | null;
};

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <h4 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
      {children}
    </div>
  );
}

function SolutionColumn({ kind, items }: { kind: "pos" | "neg"; items: string[] }) {
  const pos = kind === "pos";
  return (
    <div
      data-testid={`solutions-${kind}`}
      className={`rounded-md border p-2 ${pos ? "border-emerald-200 bg-emerald-50/50" : "border-rose-200 bg-rose-50/50"}`}
    >
      <p className={`mb-1 text-xs font-semibold ${pos ? "text-emerald-800" : "text-rose-800"}`}>
        <span aria-hidden>{pos ? "✓ " : "✗ "}</span>
        {pos ? "Positive solutions (pos)" : "Negative solutions (neg)"}
      </p>
      <ul className="list-disc space-y-1 pl-5 text-sm leading-relaxed text-slate-800">
        {items.map((s, i) => (
          <li key={i}>{s}</li>
        ))}
        {items.length === 0 ? <li className="list-none text-slate-500">none</li> : null}
      </ul>
    </div>
  );
}

/**
 * One topic of a session: the vague user query, the 2 implicit needs, the full requirement, its
 * requirement type (when situation.json linked it) with the general preference, the candidates with
 * feedback, and the reference pos/neg solutions. `id` is the in-page anchor (#topic-1).
 */
export function TopicCard({
  topic,
  index,
  anchor,
  href,
  highlighted,
}: {
  topic: TopicView;
  index: number;
  anchor: string;
  href: string;
  highlighted?: boolean;
}) {
  const rt = topic.requirementType;
  return (
    <article
      id={anchor}
      data-testid="topic"
      data-topic={topic.topicKey}
      data-highlighted={highlighted ? "true" : undefined}
      aria-labelledby={`${anchor}-title`}
      className={`scroll-mt-16 rounded-lg border bg-white outline-none ${highlighted ? "border-indigo-400 ring-2 ring-indigo-300" : "border-slate-200"}`}
    >
      <header className="flex flex-wrap items-baseline gap-2 border-b border-slate-100 px-4 py-2">
        <h3 id={`${anchor}-title`} className="text-sm font-semibold text-slate-900">
          Topic {index + 1} <span className="font-mono text-xs font-normal text-slate-500">{topic.topicKey}</span>
        </h3>
        {highlighted ? (
          <span className="rounded bg-indigo-100 px-1.5 py-0.5 text-[11px] font-medium text-indigo-800">linked topic</span>
        ) : null}
        <Link href={href} className="ml-auto text-xs text-indigo-700 hover:underline" title="Permanent link to this topic">
          Link to this topic
        </Link>
      </header>
      <div className="space-y-3 px-4 py-3">
        <Field label="User query">
          <blockquote className="border-l-2 border-sky-300 pl-2 text-sm leading-relaxed text-slate-800">{topic.userQuery}</blockquote>
        </Field>
        <Field label="Implicit needs">
          <ol className="list-decimal space-y-0.5 pl-5 text-sm leading-relaxed text-slate-800">
            {topic.implicitNeeds.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ol>
        </Field>
        <Field label="Requirement">
          <p className="text-sm leading-relaxed text-slate-800">{topic.requirement}</p>
        </Field>
        {topic.requirementTypeKey ? (
          <Field label="Requirement type">
            <div className="rounded-md bg-slate-50 p-2 text-sm">
              <p>
                <code className="mr-1 rounded bg-white px-1 text-xs ring-1 ring-slate-200">{topic.requirementTypeKey}</code>
                {rt?.requirementType ?? <span className="text-slate-500">not in the profile files</span>}
              </p>
              {rt && (rt.preferencePos.length || rt.preferenceNeg.length) ? (
                <dl className="mt-1 grid gap-1 text-xs sm:grid-cols-2">
                  <div>
                    <dt className="font-semibold text-emerald-800">✓ Prefers (pos)</dt>
                    <dd className="text-slate-700">{rt.preferencePos.join("; ") || "–"}</dd>
                  </div>
                  <div>
                    <dt className="font-semibold text-rose-800">✗ Dislikes (neg)</dt>
                    <dd className="text-slate-700">{rt.preferenceNeg.join("; ") || "–"}</dd>
                  </div>
                </dl>
              ) : null}
            </div>
          </Field>
        ) : null}
        <Field label="Candidate solutions">
          <CandidateList candidates={topic.candidates} />
        </Field>
        <Field label="Reference solutions">
          <div className="grid gap-2 md:grid-cols-2">
            <SolutionColumn kind="pos" items={topic.solutionPos} />
            <SolutionColumn kind="neg" items={topic.solutionNeg} />
          </div>
        </Field>
        {topic.framework || topic.solutionPreference ? (
          <details className="rounded-md border border-slate-200 text-sm">
            <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-slate-600">
              Evidence and feedback reasons (profile files)
            </summary>
            <div className="space-y-2 border-t border-slate-100 px-3 py-2 text-xs leading-relaxed text-slate-700">
              {topic.framework ? (
                <div>
                  <p className="font-semibold text-slate-500">Requirement framework</p>
                  <Value v={topic.framework} />
                </div>
              ) : null}
              {topic.solutionPreference ? (
                <div>
                  <p className="font-semibold text-slate-500">Solution preference</p>
                  <Value v={topic.solutionPreference} />
                </div>
              ) : null}
            </div>
          </details>
        ) : null}
      </div>
    </article>
  );
}
