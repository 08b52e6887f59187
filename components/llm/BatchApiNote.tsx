/**
 * Beside a batch option whose judge is on an endpoint not marked as serving the Batch API: the batch is
 * still allowed (an endpoint that refuses it sends the calls online), the note only says it is unconfirmed.
 */
export function BatchApiNote() {
  return (
    <p data-testid="batch-api-note" className="text-xs text-amber-700">
      The judge&apos;s endpoint is not marked as supporting the Batch API (Admin → Models).
    </p>
  );
}
