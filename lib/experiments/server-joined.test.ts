/**
 * The server's worker at a worker count of 2 (Admin → Settings, issue 35): it starts a real `pal run
 * --join` process beside itself (bin/pal.mjs) on the same SQLite file, and both run the launched
 * experiment's jobs under the job leases, each job once. Models: the fake OpenAI-compatible server (TEST
 * DOUBLE) over HTTP, slowed so the run lasts long enough for the joined process to start.
 */
import { describe, expect, it } from "vitest";
import { serverWorkerPerTest } from "@/test/server-worker-env";
import { PALSET_EN } from "@/test/fixtures";
import { experimentReplies } from "@/test/experiment-replies";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { writeSetting } from "@/lib/settings/store";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { experimentProgress } from "./progress";
import { serverWorkerJoined, startServerWorker } from "./server-worker";
import { getServerWorkers, WORKERS_KEY } from "./worker-count";

describe("the server's worker count", () => {
  const env = serverWorkerPerTest();
  // Replies are slow (3 s) until a job is held by a process other than the server's (the joined one has
  // started), so the server cannot finish the run alone first; then at once. A `pal` start that rebuilds
  // its bundle on a loaded machine takes many seconds.
  const slowUntilJoined = () => {
    const reply = experimentReplies();
    const joinedWorking = () =>
      (env.t.db.$client.prepare("SELECT count(*) FROM jobs WHERE worker NOT LIKE 'server:%'").pluck().get() as number) > 0;
    env.fake.setResponder((req) => {
      const r = reply(req);
      return joinedWorking() || typeof r !== "string" ? r : { content: r, delayMs: 3000 };
    });
  };

  it("reads the saved count: 1 when none is saved or the saved one is not a whole number in range", () => {
    const t = env.t;
    expect(getServerWorkers(t.db)).toBe(1);
    writeSetting(t.db, WORKERS_KEY, 2, null);
    expect(getServerWorkers(t.db)).toBe(2);
    writeSetting(t.db, WORKERS_KEY, 10_000, null);
    expect(getServerWorkers(t.db)).toBe(1);
  });

  it("at 2, a launched experiment's jobs run in the server's process and one joined `pal run --join` process", async () => {
    const t = env.t;
    slowUntilJoined();
    writeSetting(t.db, WORKERS_KEY, 2, null);
    const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const { id, jobs } = createExperiment(t.db, {
      name: "two processes",
      datasetId,
      config: { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["requirement"], users: ["0000"] },
    });
    const started = Date.now();
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50, concurrency: 1 });
    let seen: ReturnType<typeof serverWorkerJoined> = null;
    while (experimentProgress(t.db, id).status !== "done" && Date.now() - started < 90_000) {
      seen ??= serverWorkerJoined();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(experimentProgress(t.db, id)).toMatchObject({ status: "done", done: jobs, failed: 0 });
    expect(seen).toEqual({ experimentId: id, processes: 2 });
    const rows = t.db.$client.prepare("SELECT worker, attempts FROM jobs WHERE experiment_id = ?").all(id) as Array<{
      worker: string;
      attempts: number;
    }>;
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // Two processes (host:pid:...) took jobs: the server's (its worker id is "server:"-prefixed) and the joined one.
    const pids = new Set(rows.map((r) => r.worker.replace(/^server:/, "").split(":")[1]));
    expect(pids.size).toBe(2);
    expect(pids.has(String(process.pid))).toBe(true);
    // No request paid twice across the two (lib/llm/claims.ts).
    const paidTwice = t.db.$client.prepare(
      "SELECT cache_key FROM llm_calls WHERE cache_hit = 0 AND status = 'ok' GROUP BY cache_key HAVING count(*) > 1",
    );
    expect(paidTwice.all()).toEqual([]);
  }, 120_000);
});
