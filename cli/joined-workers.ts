/**
 * `pal run --workers N`: one JS thread keeps up with only so many requests a second (issue 35), so the
 * run's jobs are shared with N - 1 more `pal` processes on the same database. Each runs the
 * experiment's queue with its own worker id under the same job leases (lib/experiments/lease.ts) as the
 * server's worker and `pal run` beside it, so no job is run twice and a crashed one is taken over; a
 * memory two processes need is built once (its version's lease). The first process prints the results
 * once all of them are done.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** Starts `count` processes joining experiment `id`; the promise ends when all have exited, with their exit codes. */
export function startJoinedWorkers(
  id: number,
  count: number,
  concurrency: number | undefined,
): { done: Promise<number[]>; children: ChildProcess[] } {
  const args = [...process.execArgv, process.argv[1], "run", "--join", String(id)];
  if (concurrency !== undefined) args.push("--concurrency", String(concurrency));
  const children = Array.from({ length: count }, () =>
    // Their stderr is this process's (errors and interrupts read as the run's); stdout carries nothing.
    spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], env: process.env }),
  );
  const done = Promise.all(children.map((c) => new Promise<number>((resolve) => c.on("close", (code) => resolve(code ?? 1)))));
  return { done, children };
}
