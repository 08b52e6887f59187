/**
 * Long statistics (bootstraps over a large campaign) are written as generators that `yield` at
 * checkpoints. The CLI drains one at once (`runSteps`); the server drains it a few milliseconds at a
 * time (`runStepsAsync`), handing the event loop back between slices, so requests are served while a
 * report is computed in the background.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to the end, synchronously. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs the steps in slices of about `sliceMs`, yielding to the event loop (setImmediate) between slices. */
export async function runStepsAsync<T>(steps: Steps<T>, sliceMs = 8): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
