/**
 * After `kill -9` of the server, the restarted server takes over its jobs at once (issue 30.9): a live
 * lease held by a process of this machine that is gone holds nothing, nor does one whose pid was given
 * to a new process since (a restarted container's server often gets its old pid back).
 */
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { PALSET_EN } from "@/test/fixtures";
import { serverWorkerPerTest } from "@/test/server-worker-env";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { holderIsDeadLocal, leaseHolderId, pidAlive, processStart } from "@/lib/lease-holder";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { experimentProgress } from "./progress";
import { startServerWorker } from "./server-worker";
import { runExperiment, workerId } from "./worker";

/** The pid of a process that has just exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("lease holders of this machine", () => {
  it("a gone pid is dead; a live pid is dead only when it started at another time than the holder recorded", () => {
    const host = os.hostname();
    expect(holderIsDeadLocal(`${host}:${deadPid()}:abc`)).toBe(true);
    const mine = leaseHolderId();
    expect(holderIsDeadLocal(mine)).toBe(false);
    expect(holderIsDeadLocal(`server:${mine}`)).toBe(false);
    // This process's pid recorded with another start time: the holder was an earlier process with the same pid.
    expect(holderIsDeadLocal(`${host}:${process.pid}:abc:1`)).toBe(true);
    expect(holderIsDeadLocal(`server:${host}:${process.pid}:abc:1`)).toBe(true);
    // Old holders (no start time) and other machines' are judged as before.
    expect(holderIsDeadLocal(`${host}:${process.pid}:abc`)).toBe(false);
    expect(holderIsDeadLocal(`elsewhere:${deadPid()}:abc`)).toBe(false);
  });
});

describe("the server's worker after a crash", () => {
  const env = serverWorkerPerTest();

  it("takes over jobs leased (for another minute) by a killed server of this machine at once", async () => {
    const t = env.t;
    const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const { id, jobs } = createExperiment(t.db, {
      name: "crashed",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"] },
    });
    // As the killed server left it: running, two jobs leased for 60 s more by its worker.
    const killed = `server:${os.hostname()}:${deadPid()}:dead0000`;
    t.db.$client.prepare("UPDATE experiments SET status = 'running', started_at = ? WHERE id = ?").run(Date.now(), id);
    t.db.$client
      .prepare(
        `UPDATE jobs SET status = 'running', worker = ?, lease_until = ?, attempts = 1 WHERE id IN (SELECT id FROM jobs WHERE experiment_id = ? ORDER BY id LIMIT 2)`,
      )
      .run(killed, Date.now() + 60_000, id);
    const started = Date.now();
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50 });
    while (experimentProgress(t.db, id).status !== "done" && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    expect(experimentProgress(t.db, id)).toMatchObject({ status: "done", done: jobs, failed: 0 });
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);
});

describe("joined workers after SIGKILL of pal run's main process", () => {
  const env = serverWorkerPerTest();

  it("take over the jobs it held at once, not when their leases run out (a minute later)", async () => {
    const t = env.t;
    const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const { id, jobs } = createExperiment(t.db, {
      name: "main killed",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"] },
    });
    // The main process: a real child process, holding two jobs under its own holder id (host:pid:nonce:start)
    // for 60 s more, as its claim left them.
    const main = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((r) => main.once("spawn", r));
    const holder = `${os.hostname()}:${main.pid}:main0000:${processStart(main.pid!)}`;
    expect(holderIsDeadLocal(holder)).toBe(false);
    t.db.$client.prepare("UPDATE experiments SET status = 'running', started_at = ? WHERE id = ?").run(Date.now(), id);
    t.db.$client
      .prepare(
        `UPDATE jobs SET status = 'running', worker = ?, lease_until = ?, attempts = 1 WHERE id IN (SELECT id FROM jobs WHERE experiment_id = ? ORDER BY id LIMIT 2)`,
      )
      .run(holder, Date.now() + 60_000, id);
    // A joined worker (pal run --join) runs the rest, then waits for the two jobs the main process holds.
    const client = ModelClient.create(t.db, { retryBaseMs: 5 });
    const joined = runExperiment(t.db, id, bindDeps(t.db, { client }), { worker: workerId(), concurrency: 2, leaseMs: 60_000 });
    while (experimentProgress(t.db, id).done < jobs - 2) await new Promise((r) => setTimeout(r, 50));
    expect(experimentProgress(t.db, id).status).toBe("running");
    main.kill("SIGKILL");
    await new Promise((r) => main.once("exit", r));
    expect(pidAlive(main.pid!)).toBe(false);
    const killed = Date.now();
    expect(await joined).toBe("done");
    const tookOver = Date.now() - killed;
    expect(experimentProgress(t.db, id)).toMatchObject({ status: "done", done: jobs, failed: 0 });
    // The leases had a minute left: taken over within the lanes' once-a-second look instead.
    expect(tookOver).toBeLessThan(30_000);
  }, 45_000);
});
