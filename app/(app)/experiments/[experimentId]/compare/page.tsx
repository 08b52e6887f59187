import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { itemView } from "@/lib/experiments/item-view";
import { itemEvidence } from "@/lib/experiments/item-evidence";
import { listMarks } from "@/lib/experiments/marks";
import { itemHeading } from "@/lib/experiments/item-titles";
import { getJob } from "@/lib/experiments/items";
import { blockId } from "@/lib/experiments/mark-segments";
import { PageHeader } from "@/components/shell/PageHeader";
import { Cards, Fields, MethodOutputView, PairVerdicts } from "@/components/experiments/case/ItemParts";
import { MarkProvider } from "@/components/experiments/case/Marks";
import { RawToggle } from "@/components/experiments/case/RawToggle";
import { StarEditor } from "@/components/experiments/case/StarEditor";
import { EvidencePanel } from "@/components/experiments/case/EvidencePanel";

export const metadata: Metadata = { title: "Compare methods" };

type Search = { task?: string; item?: string; m?: string | string[]; run?: string };

/**
 * The same topic answered by any number of the experiment's methods, side by side (Mem-PAL Figure 4):
 * the user's cards on top, one column per method, the pairwise verdicts between the shown methods below;
 * for a LoCoMo / LongMemEval item, the evidence turns highlighted with the methods that retrieved them.
 */
export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ experimentId: string }>;
  searchParams: Promise<Search>;
}) {
  const user = await requireRole("admin", "researcher");
  const experimentId = Number((await params).experimentId);
  const sp = await searchParams;
  const task = sp.task ?? "";
  const itemKey = sp.item ?? "";
  const picked = (Array.isArray(sp.m) ? sp.m : sp.m ? [sp.m] : []).filter(Boolean);
  const run = sp.run !== undefined && /^\d+$/.test(sp.run) ? Number(sp.run) : undefined;
  const db = getDb();
  const view = orNotFound(() => itemView(db, experimentId, task, itemKey, { methods: picked, replicate: run }));
  const marks = listMarks(db, experimentId, { task, itemKey });
  // LoCoMo / LongMemEval: the evidence turns, marked with the shown methods that retrieved them (bounded: evidence sessions only).
  const evidence = itemEvidence(db, view);
  const first = view.outputs[0];
  const star = first ? getJob(db, experimentId, first.jobId).job : null;
  const shown = new Set(view.outputs.map((o) => o.method));
  return (
    <>
      <PageHeader
        title={`Compare: ${itemHeading(db, experimentId, itemKey, star?.title)}`}
        subtitle={
          <>
            <Link className="text-indigo-700 hover:underline" href={`/experiments/${experimentId}`}>
              {view.experimentName}
            </Link>{" "}
            · {task} · {view.outputs.length} of {view.methods.length} methods ·{" "}
            <span className="font-mono text-xs" data-testid="item-key">
              {itemKey}
            </span>
          </>
        }
        actions={
          <div className="flex items-center gap-2">
            <Link
              className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
              data-testid="figure-link"
              href={`/experiments/${experimentId}/figure?${new URLSearchParams([
                ["task", task],
                ["item", itemKey],
                ...view.outputs.slice(0, 4).map((o) => ["m", o.method]),
                ...(run !== undefined ? [["run", String(run)]] : []),
              ])}`}
            >
              Figure 4…
            </Link>
            {star ? (
              <StarEditor
                experimentId={experimentId}
                jobId={star.id}
                initial={{ starred: star.starred, note: star.starNote, tags: star.starTags ?? [] }}
                method={first ? (view.methodNames[first.method] ?? first.method) : undefined}
              />
            ) : null}
          </div>
        }
      />
      <form
        method="get"
        className="mb-4 flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white px-3 py-2 text-sm"
        aria-label="Methods to compare"
      >
        <input type="hidden" name="task" value={task} />
        <input type="hidden" name="item" value={itemKey} />
        {run !== undefined ? <input type="hidden" name="run" value={run} /> : null}
        <span className="text-xs text-slate-500">Methods:</span>
        {view.methods.map((m) => (
          <label key={m} className="flex items-center gap-1">
            <input type="checkbox" name="m" value={m} defaultChecked={shown.has(m)} />
            {view.methodNames[m] ?? m}
          </label>
        ))}
        <button type="submit" className="ml-auto rounded bg-indigo-600 px-2 py-1 text-xs text-white hover:bg-indigo-700">
          Compare
        </button>
      </form>
      <MarkProvider
        experimentId={experimentId}
        task={task}
        itemKey={itemKey}
        initial={marks}
        userId={user.id}
        isAdmin={user.role === "admin"}
      >
        <div className="mb-4 [&_[data-testid=item-info]]:grid [&_[data-testid=item-info]]:grid-cols-2 [&_[data-testid=item-info]]:gap-3 [&_[data-testid=item-info]]:space-y-0 xl:[&_[data-testid=item-info]]:grid-cols-4 [&_section]:max-h-64 [&_section]:overflow-y-auto">
          <Cards cards={view.cards} />
        </div>
        <div className="mb-4">
          <Fields title="Input (what the assistant saw)" fields={view.input} block={blockId.input} testId="item-input" collapsed />
        </div>
        {/* Any number of columns: past four they scroll sideways rather than shrink below reading width. */}
        <div className="overflow-x-auto">
          <div
            className="grid gap-3"
            style={{ gridTemplateColumns: `repeat(${Math.max(1, view.outputs.length)}, minmax(260px, 1fr))` }}
            data-testid="compare-columns"
          >
            {view.outputs.map((o) => (
              <MethodOutputView key={o.jobId} output={o} reference={view.reference} wide={false} name={view.methodNames[o.method]} />
            ))}
          </div>
        </div>
        {evidence ? (
          <div className="mt-4">
            <EvidencePanel view={evidence} names={view.methodNames} />
          </div>
        ) : null}
        <div className="mt-4">
          <h2 className="mb-2 font-semibold">Pairwise verdicts</h2>
          {view.pairs.length ? (
            <PairVerdicts pairs={view.pairs} experimentId={experimentId} names={view.methodNames} />
          ) : (
            <p className="text-sm text-slate-500">No pairwise judgment between the shown methods on this topic.</p>
          )}
        </div>
      </MarkProvider>
      <RawToggle experimentId={experimentId} jobIds={view.outputs.map((o) => o.jobId)} />
    </>
  );
}
