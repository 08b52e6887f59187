/**
 * Writes that wait out another process's long write. A data-set import (`pal import`, which the import
 * page starts in a child process) or a bundle import holds SQLite's write lock for its one transaction,
 * seconds on a large file; a write of the web server meanwhile fails with SQLITE_BUSY once busy_timeout
 * (db/client.ts) has passed. The writes people make while that happens (a submitted label, a saved draft,
 * a new campaign) try again between pauses that do not hold the event loop, until the lock is free or
 * BUSY_WAIT_MS has passed; then the error reaches the person as a 503 saying why (lib/errors.ts).
 * Only a write that is one transaction is safe here: a failed try changed nothing.
 */

/** How long a person's write waits, in all, for another process's write to finish. */
export const BUSY_WAIT_MS = 30_000;

/** SQLite's "another connection holds the lock" (better-sqlite3 puts the code on `e.code`). */
export function isBusy(e: unknown): boolean {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === "string" && (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_"));
}

/** Runs `write` (one transaction) and, while it fails as busy, runs it again after a pause, for at most `maxMs`. */
export async function whileBusy<T>(write: () => T, o: { maxMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (o.maxMs ?? BUSY_WAIT_MS);
  let pause = 50;
  for (;;) {
    try {
      return write();
    } catch (e) {
      if (!isBusy(e) || Date.now() + pause > deadline) throw e;
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 1000);
    }
  }
}
