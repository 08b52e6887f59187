import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { getJob } from "@/lib/experiments/items";
import { itemView } from "@/lib/experiments/item-view";
import { listMarks } from "@/lib/experiments/marks";
import { PAIR_SEP } from "@/lib/experiments/create";
import { blockId } from "@/lib/experiments/mark-segments";
import { itemHeading } from "@/lib/experiments/item-titles";
import { PageHeader } from "@/components/shell/PageHeader";
import { Cards, Fields, MethodOutputView, PairVerdicts } from "@/components/experiments/case/ItemParts";
import { MarkProvider } from "@/components/experiments/case/Marks";
import { RawToggle } from "@/components/experiments/case/RawToggle";
import { StarEditor } from "@/components/experiments/case/StarEditor";

export const metadata: Metadata = { title: "Item" };

/**
 * One job of an experiment, rendered: the user's cards beside the input and the method's output (a
 * dialogue turn by turn with the memory of each reply; an answer beside its reference). A pairwise
 * judgment shows both dialogues and the verdicts. Raw JSON is behind a toggle.
 */
export default async function JobPage({ params }: { params: Promise<{ experimentId: string; jobId: string }> }) {
  const user = await requireRole("admin", "researcher");
  const p = await params;
  const experimentId = Number(p.experimentId);
  const db = getDb();
  const { job } = orNotFound(() => getJob(db, experimentId, Number(p.jobId)));
  const pair = job.method.includes(PAIR_SEP) ? job.method.split(PAIR_SEP) : null;
  const view = itemView(db, experimentId, job.task, job.itemKey, { methods: pair ?? [job.method], replicate: job.replicate });
  const marks = listMarks(db, experimentId, { task: job.task, itemKey: job.itemKey });
  const compare = `/experiments/${experimentId}/compare?task=${encodeURIComponent(job.task)}&item=${encodeURIComponent(job.itemKey)}`;
  return (
    <>
      <PageHeader
        title={itemHeading(db, experimentId, job.itemKey, job.title)}
        subtitle={
          <>
            <Link className="text-indigo-700 hover:underline" href={`/experiments/${experimentId}`}>
              {view.experimentName}
            </Link>{" "}
            · {job.task} · {(pair ?? [job.method]).map((m) => view.methodNames[m] ?? m).join(" vs ")} · run {job.replicate + 1} ·{" "}
            {job.status} ·{" "}
            <span className="font-mono text-xs" data-testid="item-key">
              {job.itemKey}
            </span>
          </>
        }
        actions={
          <div className="flex items-start gap-2">
            <Link className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50" href={compare}>
              Compare methods on this topic
            </Link>
            <StarEditor
              experimentId={experimentId}
              jobId={job.id}
              initial={{ starred: job.starred, note: job.starNote, tags: job.starTags ?? [] }}
            />
          </div>
        }
      />
      <MarkProvider
        experimentId={experimentId}
        task={job.task}
        itemKey={job.itemKey}
        initial={marks}
        userId={user.id}
        isAdmin={user.role === "admin"}
      >
        <div className="grid grid-cols-[minmax(240px,320px)_minmax(0,1fr)] gap-4" data-testid="drilldown">
          <aside className="self-start lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
            <Cards cards={view.cards} />
          </aside>
          <div className="min-w-0 space-y-3">
            {job.error ? (
              <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-700" data-testid="job-error">
                This job failed: {job.error}
              </p>
            ) : null}
            <Fields title="Input (what the assistant saw)" fields={view.input} block={blockId.input} testId="item-input" />
            {pair ? (
              <>
                <div className="grid grid-cols-2 gap-3" data-testid="dialogues">
                  {view.outputs.map((o) => (
                    <MethodOutputView key={o.jobId} output={o} reference={view.reference} wide={false} name={view.methodNames[o.method]} />
                  ))}
                </div>
                <PairVerdicts pairs={view.pairs} experimentId={experimentId} names={view.methodNames} />
              </>
            ) : (
              view.outputs.map((o) => (
                <MethodOutputView key={o.jobId} output={o} reference={view.reference} wide name={view.methodNames[o.method]} />
              ))
            )}
          </div>
        </div>
      </MarkProvider>
      <RawToggle experimentId={experimentId} jobIds={[job.id]} />
    </>
  );
}
