import { ACTION_LABELS, type ActionCode } from "@/lib/datasets/palset/actions";

const STYLE: Record<ActionCode, string> = {
  topic_inquiry: "bg-sky-50 text-sky-800 ring-sky-200",
  requirement_confirmation: "bg-violet-50 text-violet-800 ring-violet-200",
  solution_discussion: "bg-amber-50 text-amber-800 ring-amber-200",
  solution_feedback: "bg-teal-50 text-teal-800 ring-teal-200",
  requirement_prediction: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  solution_proposal: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  feedback_response: "bg-cyan-50 text-cyan-800 ring-cyan-200",
};

/** A dialogue action: the original label as published, coloured by its normalized code. */
export function ActionBadge({ label, code }: { label: string; code: string | null }) {
  const known = code && code in STYLE ? (code as ActionCode) : null;
  const title = known ? `${ACTION_LABELS[known].en} (${known})` : "unrecognised action";
  return (
    <span
      data-testid="action-badge"
      data-action={known ?? "unknown"}
      title={title}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset ${known ? STYLE[known] : "bg-slate-100 text-slate-600 ring-slate-300"}`}
    >
      {label || "–"}
      {known ? null : (
        <span className="ml-1" aria-hidden>
          ?
        </span>
      )}
    </span>
  );
}
