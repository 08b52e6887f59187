/**
 * An offline replay and external methods (issue 41): a registered method is code outside PAL Studio,
 * reached over HTTP, so `pal bundle verify` cannot run it again with the network closed. Its jobs are
 * not replayed: their results (output, what was retrieved, scores, or the failure) are carried over from
 * the bundle as they are, so the jobs built on them (a dialogue's pairwise judging against another
 * method) and the paper tables replay, and the report names each such method and its jobs apart:
 * "needs the external service NAME (not replayed)". Its memory (the entries it handed back) is not
 * rebuilt either, so it is left out of the memory comparison.
 */
import type Database from "better-sqlite3";
import type { Db } from "@/db/client";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { methodKey } from "@/lib/tasks/method-key";
import { completeJob } from "@/lib/experiments/lease";
import { ASSISTANTS } from "@/lib/assistants/registry";

/** One external method of the run: its name, how its results are named, and its jobs carried over unreplayed. */
export type NotReplayed = { method: string; label: string; jobs: number; failed: number };

const CARRIER = "bundle (not replayed)";

/** The run's methods that are not built in (the replay database registers none: they were external). */
export function externalMethodsOf(replay: Db, experimentId: number): Array<{ name: string; key: string }> {
  const row = replay.$client.prepare("SELECT config FROM experiments WHERE id = ?").get(experimentId) as { config: string };
  const builtIn = new Set(ASSISTANTS.map((a) => a.id));
  return parseExperimentConfig(JSON.parse(row.config))
    .methods.filter((m) => !builtIn.has(m.name))
    .map((m) => ({ name: m.name, key: methodKey(m) }));
}

type BundledJob = {
  status: string;
  input: string | null;
  output: string | null;
  retrieved: string | null;
  usage: string | null;
  error: string | null;
  id: number;
};

const parse = (t: string | null): unknown => (t === null ? null : JSON.parse(t));

/**
 * Marks the replay's jobs of external methods with the bundle's results before the replay runs, in one
 * transaction each (as a worker would finish them). Returns what was carried over, per method.
 */
export function carryOverExternalJobs(replay: Db, replayId: number, bundled: Database.Database, bundledId: number): NotReplayed[] {
  const out: NotReplayed[] = [];
  const methods = externalMethodsOf(replay, replayId);
  if (!methods.length) return out;
  const conn = replay.$client;
  const findBundled = bundled.prepare(
    `SELECT id, status, input, output, retrieved, usage, error FROM jobs
     WHERE experiment_id = ? AND replicate = ? AND method = ? AND task = ? AND item_key = ?`,
  );
  const scoresOf = bundled.prepare(`SELECT scorer, version, "values" AS v, detail FROM job_scores WHERE job_id = ?`);
  const claim = conn.prepare(`UPDATE jobs SET status = 'running', worker = ?, attempts = attempts + 1 WHERE id = ? AND status = 'queued'`);
  const fail = conn.prepare(`UPDATE jobs SET status = 'failed', error = ?, finished_at = ?, worker = NULL WHERE id = ?`);
  for (const m of methods) {
    const jobs = conn
      .prepare("SELECT id, replicate, task, item_key AS item FROM jobs WHERE experiment_id = ? AND method = ? AND status = 'queued'")
      .all(replayId, m.key) as Array<{ id: number; replicate: number; task: string; item: string }>;
    let carried = 0;
    let failed = 0;
    for (const j of jobs) {
      const b = findBundled.get(bundledId, j.replicate, m.key, j.task, j.item) as BundledJob | undefined;
      if (!b || (b.status !== "done" && b.status !== "failed")) continue;
      if (b.status === "failed") {
        fail.run(`${b.error ?? "failed"} (carried over from the bundle: needs the external service ${m.name})`, Date.now(), j.id);
        failed++;
        carried++;
        continue;
      }
      claim.run(CARRIER, j.id);
      const scores = (scoresOf.all(b.id) as Array<{ scorer: string; version: number; v: string; detail: string | null }>).map((s) => ({
        scorer: s.scorer,
        version: s.version,
        values: JSON.parse(s.v) as Record<string, number>,
        detail: parse(s.detail),
      }));
      completeJob(
        replay,
        j.id,
        CARRIER,
        { input: parse(b.input), output: parse(b.output), retrieved: parse(b.retrieved) ?? undefined, scores },
        (parse(b.usage) as Record<string, number> | null) ?? {},
      );
      carried++;
    }
    out.push({ method: m.name, label: m.key, jobs: carried, failed });
  }
  return out;
}
