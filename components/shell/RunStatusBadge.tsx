import { runStatusLabel, TONE_CLASSES } from "@/lib/run-status";

/** A run's status as a coloured badge: "done, N failed" reads amber, never green. */
export function RunStatusBadge({ status, failed, total }: { status: string; failed: number; total?: number }) {
  const l = runStatusLabel(status, failed, total);
  return (
    <span data-testid="run-status" className={`rounded px-2 py-0.5 text-xs font-medium ${TONE_CLASSES[l.tone].badge}`}>
      {l.text}
    </span>
  );
}
