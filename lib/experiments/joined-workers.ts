/**
 * Joined worker processes (issue 35): one JS thread keeps up with only so many requests a second, so an
 * experiment's jobs are shared with more `pal run --join ID` processes on the same database. Each runs the
 * experiment's queue with its own worker id under the same job leases (./lease.ts) as the process that
 * started them, so no job is run twice and a crashed one is taken over; a memory two processes need is
 * built once (its version's lease), and an identical request two send at once is paid once
 * (lib/llm/claims.ts). `pal run --workers N` starts N - 1 of them; the server's worker starts them for
 * the worker count set on Admin → Settings (./worker-count.ts).
 */
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { envValue } from "@/lib/config";

/** How the server starts `pal`: the project's bin/pal.mjs (its execArgv are Next's, not the CLI's). */
export const palCommand = (): string[] => [path.join(envValue("PAL_ROOT") || process.cwd(), "bin", "pal.mjs")];

/** The `pal` process running now (the CLI starting its own joined workers). */
export const thisPalCommand = (): string[] => [...process.execArgv, process.argv[1]];

/** Starts `count` processes joining experiment `id`; the promise ends when all have exited, with their exit codes. */
export function startJoinedWorkers(
  id: number,
  count: number,
  concurrency: number | undefined,
  command: string[] = thisPalCommand(),
): { done: Promise<number[]>; children: ChildProcess[] } {
  const args = [...command, "run", "--join", String(id)];
  if (concurrency !== undefined) args.push("--concurrency", String(concurrency));
  const children = Array.from({ length: count }, () =>
    // Their stderr is this process's (errors and interrupts read as the run's); stdout carries nothing.
    spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], env: process.env }),
  );
  const done = Promise.all(
    children.map(
      (c) =>
        new Promise<number>((resolve) => {
          // A process that cannot start (no node, no script) counts as failed; the caller's own worker runs the jobs.
          c.on("error", () => resolve(1));
          c.on("close", (code) => resolve(code ?? 1));
        }),
    ),
  );
  return { done, children };
}
