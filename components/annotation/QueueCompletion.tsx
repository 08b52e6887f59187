"use client";
import Link from "next/link";
import type { QueueEntry } from "@/lib/annotation/queue";
import { TAP } from "@/components/shell/touch";
import { useTouch } from "@/components/shell/useTouch";

/** After the last item: how the queue ended, and the items still worth a look (skipped, commented). */
export function QueueCompletion({ entries, open, guides }: { entries: QueueEntry[]; open: (i: number) => void; guides: React.ReactNode }) {
  const touch = useTouch();
  const done = entries.filter((e) => e.status === "done").length;
  const skipped = entries.map((e, i) => ({ ...e, i })).filter((e) => e.status === "skipped");
  const commented = entries.map((e, i) => ({ ...e, i })).filter((e) => e.status === "done" && e.comments > 0);
  const itemButton = (i: number) => (
    <button
      type="button"
      onClick={() => open(i)}
      className={`shrink-0 rounded border border-slate-300 px-2 py-0.5 text-xs hover:border-indigo-400 ${TAP}`}
    >
      Open item {i + 1}
    </button>
  );
  return (
    <div className="space-y-3">
      {guides}
      <section className="mx-auto max-w-2xl rounded-lg border border-emerald-200 bg-white p-4 sm:p-6" data-testid="completion">
        <h2 className="text-lg font-semibold text-slate-900">
          {skipped.length ? "You have been through every item" : "Every item is labelled — thank you"}
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="completion-counts">
          {done} labelled · {skipped.length} skipped · {commented.length} with a comment
        </p>
        {skipped.length ? (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-amber-800">Skipped — still open for you</h3>
            <ul className="mt-1 space-y-1 text-sm" data-testid="completion-skipped">
              {skipped.map((e) => (
                <li key={e.assignmentId} className="flex items-center gap-2">
                  {itemButton(e.i)}
                  <span className="min-w-0 break-words text-slate-600">“{e.skipReason}”</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {commented.length ? (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-slate-700">Items you commented on</h3>
            <ul className="mt-1 flex flex-wrap gap-2" data-testid="completion-commented">
              {commented.map((e) => (
                <li key={e.assignmentId}>{itemButton(e.i)}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="mt-4 text-xs text-slate-500">
          {touch
            ? "While the campaign is open you can still change a label: open the item, choose again and tap Submit."
            : "While the campaign is open you can still change a label: open the item (or press ←), choose again and press Enter."}
        </p>
        <Link
          href="/annotate"
          className="mt-4 inline-flex min-h-11 items-center rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white md:min-h-0"
        >
          Back to my campaigns
        </Link>
      </section>
    </div>
  );
}
