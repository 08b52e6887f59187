/**
 * The worker count of the runs the server starts (Admin → Settings, issue 35): how many processes run a
 * launched experiment's jobs. At N > 1 the server's worker starts N - 1 `pal run --join` processes beside
 * itself (./joined-workers.ts), as `pal run --workers N` does, so a run against a fast endpoint uses more
 * than one core. The CLI's own count is its flag or PAL_WORKERS.
 */
import os from "node:os";
import { z } from "zod";
import type { Db } from "@/db/client";
import { parseForm } from "@/lib/http/form";
import { readSetting, writeSetting } from "@/lib/settings/store";

export const WORKERS_KEY = "experiments.workers";

/** More processes than twice the cores only take turns on them. */
export const maxServerWorkers = (): number => Math.max(2, os.availableParallelism() * 2);

const countSchema = () =>
  z
    .number({ error: "expected a whole number" })
    .int("expected a whole number")
    .min(1, "at least 1")
    .max(maxServerWorkers(), `at most ${maxServerWorkers()} (twice this machine's cores)`);

/** The saved count, 1 when none is saved (or a saved one no longer fits this machine). */
export function getServerWorkers(db: Db): number {
  const r = countSchema().safeParse(readSetting(db, WORKERS_KEY));
  return r.success ? r.data : 1;
}

/** Admin → Settings: the worker count from the form, a whole number from 1 to twice the cores. */
export function saveWorkersForm(db: Db, form: FormData, userId: number): { ok: string; workers: number } {
  const { workers } = parseForm(
    z.object({
      workers: z
        .string({ error: "expected the number of worker processes" })
        .trim()
        .regex(/^\d{1,4}$/, "expected a whole number")
        .transform(Number)
        .pipe(countSchema()),
    }),
    form,
  );
  writeSetting(db, WORKERS_KEY, workers, userId);
  return { ok: workers === 1 ? "Runs use one process." : `Runs use ${workers} processes.`, workers };
}
