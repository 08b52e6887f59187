/**
 * `pal run`'s progress on stderr. On a terminal one line redrawn in place (at most 10 times a second);
 * into a pipe or a log file a line at most every 5 s and one at the end, so a run of 100,000 jobs
 * writes a few hundred lines, not one per job.
 */
export const LOG_EVERY_MS = 5000;
const TTY_EVERY_MS = 100;

export type ProgressOut = { write(s: string): unknown; isTTY?: boolean };

export function progressWriter(out: ProgressOut, line: () => string, now: () => number = Date.now) {
  const tty = Boolean(out.isTTY);
  const every = tty ? TTY_EVERY_MS : LOG_EVERY_MS;
  let last = -Infinity;
  let pending = false;
  return {
    /** A job finished: writes the line if the last one is old enough. */
    tick(): void {
      pending = true;
      if (now() - last < every) return;
      last = now();
      pending = false;
      out.write(tty ? `\r${line()}` : `${line()}\n`);
    },
    /** Something else is about to be written on its own line (a batch's state). */
    interrupt(): string {
      return tty && last > -Infinity ? "\n" : "";
    },
    /** The run ended: the final line (on a terminal, ends the line being redrawn). */
    end(): void {
      if (tty) out.write(`\r${line()}\n`);
      else if (pending || last === -Infinity) out.write(`${line()}\n`);
      pending = false;
    },
  };
}
