import Link from "next/link";
import type { CmThreadPage } from "@/lib/datasets/convmem/queries";
import { Pager } from "./Pager";

/** A LoCoMo turn's anchor ("turn-D3-5"), so an evidence id links to its turn. */
export const turnAnchor = (diaId: string) => `turn-${diaId.replace(/[^A-Za-z0-9]+/g, "-")}`;

/**
 * One LoCoMo conversation or LongMemEval haystack: its QA items (reference, category or type, evidence
 * linking to the turns) and a page of its sessions, dated, each turn with its speaker; evidence turns
 * (LoCoMo dialogue ids named by a QA item, LongMemEval has_answer turns) are highlighted.
 */
export function CmThreadView({ t, href }: { t: CmThreadPage; href: (page: number) => string }) {
  const evidence = new Set(t.qa.flatMap((q) => q.evidence));
  const sideA = t.speakerA ?? "user";
  return (
    <div className="space-y-6">
      <section aria-labelledby="qa-title" className="rounded border border-slate-200 bg-white">
        <h2 id="qa-title" className="border-b border-slate-200 px-3 py-2 text-sm font-semibold text-slate-800">
          {t.qa.length === 1 ? "Question" : `QA items (${t.qa.length})`}
        </h2>
        <ol className="divide-y divide-slate-100" data-testid="cm-qa">
          {t.qa.map((q) => (
            <li key={q.itemKey} className="space-y-1 px-3 py-2 text-sm">
              <p className="text-slate-900">
                {q.category !== null ? (
                  <span className="mr-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">category {q.category}</span>
                ) : null}
                {q.questionType ? (
                  <span className="mr-2 rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-800">
                    {q.questionType}
                    {q.itemKey.includes("_abs") ? " · abstention" : ""}
                  </span>
                ) : null}
                {q.question}
              </p>
              <p className="text-slate-600">
                <span className="text-xs uppercase tracking-wide text-slate-500">Reference </span>
                {q.category === 5 ? `not answerable (adversarial answer: ${q.adversarialAnswer ?? "?"})` : q.answer}
                {q.questionDate ? <span className="ml-2 text-xs text-slate-500">asked {q.questionDate}</span> : null}
              </p>
              {q.evidence.length ? (
                <p className="text-xs text-slate-500">
                  Evidence:{" "}
                  {q.evidence.map((e, i) => (
                    <span key={e}>
                      {i ? ", " : ""}
                      {t.speakerA !== null ? (
                        <a className="font-mono text-indigo-700 hover:underline" href={`#${turnAnchor(e)}`}>
                          {e}
                        </a>
                      ) : (
                        <span className="font-mono">{e}</span>
                      )}
                    </span>
                  ))}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="sessions-title" className="space-y-3">
        <h2 id="sessions-title" className="text-sm font-semibold text-slate-800">
          Sessions
        </h2>
        <Pager page={t.page} pageSize={t.pageSize} total={t.sessionCount} href={href} />
        {t.sessions.map((s) => (
          <article key={`${s.seq}`} className="rounded border border-slate-200 bg-white" data-testid="cm-session">
            <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-3 py-2">
              <h3 className="font-mono text-sm text-slate-800">
                {s.seq + 1}. {s.label}
              </h3>
              <span className="text-xs text-slate-500">{s.date ?? ""}</span>
            </header>
            <div className="space-y-2 px-3 py-3">
              {s.turns.map((u) => {
                const mine = u.speaker === sideA;
                const marked = (u.diaId !== null && evidence.has(u.diaId)) || u.hasAnswer === 1;
                const caption = typeof u.extra?.blip_caption === "string" ? u.extra.blip_caption : null;
                return (
                  <div
                    key={u.position}
                    id={u.diaId ? turnAnchor(u.diaId) : undefined}
                    className={`flex ${mine ? "justify-end" : "justify-start"}`}
                  >
                    <div
                      data-testid={marked ? "evidence-turn" : "turn"}
                      className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm leading-relaxed ${
                        mine ? "rounded-tr-sm bg-indigo-50 text-slate-900" : "rounded-tl-sm border border-slate-200 bg-white text-slate-800"
                      } ${marked ? "ring-2 ring-amber-400" : ""}`}
                    >
                      <p className="mb-0.5 text-xs text-slate-500">
                        {u.speaker}
                        {u.diaId ? <span className="ml-2 font-mono">{u.diaId}</span> : null}
                        {marked ? <span className="ml-2 font-medium text-amber-700">evidence</span> : null}
                      </p>
                      <p className="whitespace-pre-wrap">{u.text}</p>
                      {caption ? <p className="mt-1 text-xs italic text-slate-500">[shares {caption}]</p> : null}
                    </div>
                  </div>
                );
              })}
            </div>
          </article>
        ))}
        <Pager page={t.page} pageSize={t.pageSize} total={t.sessionCount} href={href} />
      </section>
      <p className="text-xs text-slate-500">
        <Link href="#qa-title">Back to the questions</Link>
      </p>
    </div>
  );
}
