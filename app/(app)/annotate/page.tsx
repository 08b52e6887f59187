import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { myCampaigns } from "@/lib/annotation";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

export default async function AnnotatePage() {
  const user = await requireRole("admin", "researcher", "annotator");
  const mine = myCampaigns(getDb(), user.id);
  return (
    <>
      <PageHeader title="Your annotation queue" subtitle={`Signed in as ${user.email}. You only ever see your own assignments.`} />
      {mine.length === 0 ? (
        <EmptyState title="Nothing assigned to you yet">
          When a researcher adds you to a campaign, its items appear here one at a time.
        </EmptyState>
      ) : (
        <ul className="space-y-2" data-testid="my-campaigns">
          {mine.map((c) => (
            <li key={c.id} className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-3">
              <div className="min-w-0">
                <p className="break-words font-medium">{c.name}</p>
                <p className="text-xs text-slate-500">
                  {c.done} / {c.total} done{c.skipped ? ` · ${c.skipped} skipped` : ""} · {c.status}
                </p>
              </div>
              <Link
                href={`/annotate/${c.id}`}
                className="inline-flex min-h-11 shrink-0 items-center rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white md:min-h-0"
              >
                {c.done + c.skipped === 0 ? "Start" : c.done + c.skipped < c.total ? "Resume" : "Review"}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
