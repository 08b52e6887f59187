/**
 * Cancel means no new paid request from any process. A `pal run` interrupted with Ctrl+C (SIGINT, the
 * real CLI as a child process) pauses its experiment and exits at once, and the app's worker, running
 * beside it on the same database, does not take the experiment over; an experiment cancelled through
 * the API's control body while the app's worker runs it stops at once, and no job is queued again. In
 * both, the test double's request log stays still for several lease periods (leases shortened).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import Database from "better-sqlite3";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { startServerWorker, stopPreparer, stopServerWorker } from "@/lib/experiments/server-worker";
import { controlExperiment, estimateOrLaunch } from "@/lib/experiments/service";
import { cancelExperiment } from "@/lib/experiments/control";
import { experimentProgress } from "@/lib/experiments/progress";
import { openDb } from "@/db/client";
import { experimentReplies } from "@/test/experiment-replies";

const LEASE_MS = 600;
const RUN = oneRun("vanilla,vanilla-log", "requirement,solution", "--concurrency", "4");
const MODELS = { PAL_MODEL_ASSISTANT: "assistant-model", PAL_MODEL_USER_SIMULATOR: "simulator-model", PAL_MODEL_JUDGE: "judge-model" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The app's worker in this process, on the test's database file, with short leases. */
function startAppWorker(file: string, baseURL: string) {
  vi.stubEnv("OPENAI_BASE_URL", baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test");
  for (const [k, v] of Object.entries(MODELS)) vi.stubEnv(k, v);
  vi.stubEnv("PAL_JOB_LEASE_MS", String(LEASE_MS));
  const db = openDb(file);
  startServerWorker(db, () => bindDeps(db, { client: ModelClient.create(db, { retryBaseMs: 5 }) }), { idleMs: 50, leaseMs: LEASE_MS });
  return db;
}

describe("cancel and Ctrl+C stop every process's requests", () => {
  const s = palRunSetup(3, { latencyMs: 250 });
  afterEach(() => {
    stopServerWorker();
    stopPreparer();
    vi.unstubAllEnvs();
  });

  it("pal run on Ctrl+C pauses its experiment, says so, exits at once; the app's worker does not take it over", async () => {
    const file = s.dbs[0].file;
    startAppWorker(file, s.fake.baseURL);
    const chatsBefore = s.fake.log.length;
    let signalAt = 0;
    const run = await runPal(file, s.fake.baseURL, RUN, {
      env: { PAL_JOB_LEASE_MS: String(LEASE_MS) },
      killWhen: () => s.fake.log.length >= chatsBefore + 6,
      signal: "SIGINT",
      onSignal: (at) => (signalAt = at),
    });
    const exitedAt = Date.now();
    expect(run.code, run.stderr).toBe(130);
    // "At once": the replies in flight (250 ms each) are waited for, never the 10 s bound of a stuck one. Not a
    // tighter figure: on a loaded 2-core machine the exit alone took 2.8-3.9 s (a timed assertion failed the suite).
    expect(exitedAt - signalAt).toBeLessThan(9000);
    expect(run.stderr).toMatch(
      /Ctrl\+C: experiment 1 paused: no new model request is sent; \d+ jobs? in progress went back to the queue\. Resume with pal run --resume 1/,
    );

    const watch = new Database(file, { readonly: true });
    const status = () => (watch.prepare("SELECT status FROM experiments WHERE id = 1").get() as { status: string }).status;
    expect(status()).toBe("paused");
    // Several lease periods: nothing is sent by anyone after the CLI exited, and nothing is taken over.
    await sleep(LEASE_MS * 5);
    expect(s.fake.log.filter((r) => r.receivedAt > exitedAt)).toEqual([]);
    expect(status()).toBe("paused");
    const counts = watch.prepare("SELECT status, count(*) AS n FROM jobs GROUP BY status").all() as Array<{ status: string; n: number }>;
    expect(counts.find((c) => c.status === "running")).toBeUndefined();
    expect(counts.find((c) => c.status === "queued")?.n).toBeGreaterThan(0);
    watch.close();

    // It goes on where it stopped.
    stopServerWorker();
    const resumed = await runPal(file, s.fake.baseURL, ["run", "--resume", "1", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).status).toBe("done");
    // Its progress lines say what it waits for, so a slow model never looks like a dead run.
    expect(resumed.stderr).toMatch(
      /done=\d+ failed=\d+ running=\d+ eta=\S+ · (no call in flight|\d+ calls? in flight, the oldest for \d+ s)/,
    );
  }, 120_000);

  it("pal run whose experiment is cancelled from the web stops and exits 4, saying so (issue 30.9)", async () => {
    const file = s.dbs[2].file;
    const before = s.fake.log.length;
    let cancelled = false;
    const run = runPal(file, s.fake.baseURL, RUN);
    const deadline = Date.now() + 30_000;
    while (s.fake.log.length < before + 4 && Date.now() < deadline) await sleep(20);
    // As the page's Cancel does: only the experiment's state changes; the CLI's run sees it before its next request.
    const db = openDb(file);
    try {
      cancelExperiment(db, 1);
      cancelled = true;
    } finally {
      db.$client.close();
    }
    const r = await run;
    expect(cancelled).toBe(true);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/experiment 1 was cancelled \(from its page or another process\); nothing more is sent/);
  }, 120_000);

  it("Cancel through the API while the app's worker runs the experiment: no request after it, no job queued again", async () => {
    const file = s.dbs[1].file;
    // Slower replies: the run is surely in the middle of its requests when it is cancelled.
    const normal = experimentReplies();
    s.fake.setResponder((r) => {
      const reply = normal(r);
      return typeof reply === "string" ? { content: reply, delayMs: 600 } : reply;
    });
    const db = startAppWorker(file, s.fake.baseURL);
    const datasetId = (db.$client.prepare("SELECT id FROM datasets WHERE name = 'en'").get() as { id: number }).id;
    const before = s.fake.log.length;
    const { experiment } = estimateOrLaunch(
      db,
      { datasetId, config: { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["requirement", "solution"] } },
      null,
    );
    startServerWorker(db, () => bindDeps(db), { leaseMs: LEASE_MS }); // wakes the running loop
    const deadline = Date.now() + 20_000;
    while (s.fake.log.length < before + 6 && Date.now() < deadline) await sleep(20);
    expect(s.fake.log.length).toBeGreaterThanOrEqual(before + 6);
    // The run's process shows what it waits for (the page's progress reads the same).
    // (written every 2 s)
    await vi.waitFor(() => expect(experimentProgress(db, experiment!.id).inFlight?.calls).toBeGreaterThan(0), {
      timeout: 6000,
      interval: 50,
    });

    controlExperiment(db, experiment!.id, { action: "cancel" });
    const cancelledAt = Date.now();
    await sleep(LEASE_MS * 5);
    // A request already on its way may land a moment after; none is sent after the cancel.
    expect(s.fake.log.filter((r) => r.receivedAt > cancelledAt + 20)).toEqual([]);
    const p = experimentProgress(db, experiment!.id);
    expect(p).toMatchObject({ status: "cancelled", running: 0, queued: 0 });
    expect(p.done + p.cancelled + p.failed).toBe(p.total);
    const requeued = db.$client.prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND attempts > 1").get(experiment!.id) as {
      n: number;
    };
    expect(requeued.n).toBe(0);
  }, 120_000);
});
