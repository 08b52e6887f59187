export type Candidate = { position: number; solution: string; feedback: "pos" | "neg" | "neu" | string };

const FEEDBACK: Record<string, { icon: string; text: string; cls: string; row: string }> = {
  pos: { icon: "✓", text: "Positive", cls: "bg-emerald-100 text-emerald-800 ring-emerald-300", row: "border-l-emerald-500" },
  neg: { icon: "✗", text: "Negative", cls: "bg-rose-100 text-rose-800 ring-rose-300", row: "border-l-rose-500" },
  neu: { icon: "○", text: "Neutral", cls: "bg-slate-100 text-slate-700 ring-slate-300", row: "border-l-slate-300" },
};

/** The user's feedback on a candidate: colour plus an icon and a word, so it reads without colour too. */
export function FeedbackLabel({ feedback }: { feedback: string }) {
  const f = FEEDBACK[feedback] ?? { icon: "?", text: feedback, cls: "bg-white text-slate-600 ring-slate-300", row: "" };
  return (
    <span
      data-testid="feedback"
      data-feedback={feedback}
      className={`inline-flex w-24 shrink-0 items-center justify-center gap-1 rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${f.cls}`}
    >
      <span aria-hidden>{f.icon}</span>
      {f.text}
      <span className="sr-only"> feedback ({feedback})</span>
    </span>
  );
}

/** A topic's candidate solutions (8 in PAL-Set), each with the user's feedback. */
export function CandidateList({ candidates }: { candidates: Candidate[] }) {
  const count = (fb: string) => candidates.filter((c) => c.feedback === fb).length;
  return (
    <div>
      <p className="mb-1 text-xs text-slate-500">
        {candidates.length} candidates · {count("pos")} positive · {count("neg")} negative · {count("neu")} neutral
      </p>
      <ol data-testid="candidates" className="space-y-1">
        {candidates.map((c, i) => (
          <li
            key={i}
            data-testid="candidate"
            className={`flex items-start gap-2 rounded border border-l-4 border-slate-200 bg-white px-2 py-1.5 text-sm ${FEEDBACK[c.feedback]?.row ?? ""}`}
          >
            <span className="w-5 shrink-0 pt-0.5 text-right text-xs tabular-nums text-slate-500">{i + 1}</span>
            <FeedbackLabel feedback={c.feedback} />
            <span className="leading-relaxed text-slate-800">{c.solution}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
