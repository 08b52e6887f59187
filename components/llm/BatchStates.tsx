import type { BatchState } from "@/lib/llm/batch";

/** The state of each Batch API batch of a run (a campaign's judge run, an experiment's judge calls). */
export function BatchStates({ batches, testId = "llm-run-batch" }: { batches: BatchState[]; testId?: string }) {
  return (
    <>
      {batches.map((b) => (
        <div key={b.id} className="text-xs text-slate-600" data-testid={testId}>
          Batch {b.id}: {b.status.replace("_", " ")} · {b.completed}/{b.requests} answered
          {b.failed ? `, ${b.failed} failed` : ""}
          {b.error ? ` · ${b.error}` : ""}
        </div>
      ))}
    </>
  );
}
