/**
 * Issue 14, item 2: what one launch may create, how often a user may launch, and jobs created in
 * chunks off the request path (resumable, yielding to the event loop between chunks). Real SQLite,
 * the real PAL-Set fixture; timing is measured in bench/experiment-launch.bench.ts, not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";
import { isAppError, TooManyRequestsError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { actionResult } from "@/lib/http/action-result";
import {
  LIMIT_DEFAULTS,
  LimitExceededError,
  getExperimentLimits,
  overLimits,
  saveLimitsForm,
  setExperimentLimits,
  type ExperimentLimits,
} from "@/lib/experiments/limits";
import { createExperiment, launchExperiment } from "./create";
import { prepareJobs, prepareJobsSync, PREPARE_CHUNK } from "./prepare";
import { cancelExperiment, getExperimentRow, pauseExperiment, resumeExperiment } from "./control";
import { dryRun } from "./dry-run";
import { datasetHash, datasetHashInPages } from "@/lib/experiments/dataset-hash";
import { runExperiment } from "./worker";
import { LAUNCH_BODY_LIMIT } from "./service";

let t: ReturnType<typeof tempDb>;
let datasetId: number;
let alice: number;
let bob: number;
let items: number;

const jobCount = (id: number) =>
  (t.db.$client.prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ?").get(id) as { n: number }).n;
const experimentCount = () => (t.db.$client.prepare("SELECT count(*) AS n FROM experiments").get() as { n: number }).n;
const labels = (n: number) => Array.from({ length: n }, (_, i) => ({ name: "vanilla", label: `v${i}` }));
const config = (methods: number, repeats = 1) => ({ methods: labels(methods), tasks: ["requirement"], repeats });
/** A config of about `jobs` jobs (at least that many): 20 repeats of enough method labels. */
const sized = (jobs: number) => config(Math.ceil(jobs / (items * 20)), 20);
const raise = (patch: Partial<ExperimentLimits>) => setExperimentLimits(t.db, { ...getExperimentLimits(t.db), ...patch }, alice);

/** The AppError a call throws (fails the test when it does not throw one). */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected the call to be refused");
}

beforeAll(async () => {
  t = tempDb();
  datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" })).datasetId;
  alice = (await createUser(t.db, { email: "alice@x.io", role: "researcher", password: "password-123" })).id;
  bob = (await createUser(t.db, { email: "bob@x.io", role: "researcher", password: "password-123" })).id;
  items = dryRun(t.db, datasetId, config(1)).total.items;
});
afterAll(() => t.cleanup());

describe("limits on one launch", () => {
  it("defaults fit the papers' full PAL-Set run (830 topics × 3 tasks × 9 methods × 3 repeats + pairs)", () => {
    const paper = 3 * 830 * 9 * 3 + 830 * 8 * 3;
    expect(paper).toBe(87_150);
    expect(overLimits({ methods: 9, repeats: 3, jobs: paper }, LIMIT_DEFAULTS)).toEqual([]);
    expect(LIMIT_DEFAULTS.maxJobs).toBeGreaterThanOrEqual(2 * paper);
    expect(getExperimentLimits(t.db)).toEqual(LIMIT_DEFAULTS);
  });

  it("too many methods or repeats is refused naming the limit and how to raise it; nothing is created", () => {
    const before = experimentCount();
    const many = refusal(() => launchExperiment(t.db, { name: "x", datasetId, config: config(2000, 20), createdBy: alice }));
    expect(many).toBeInstanceOf(LimitExceededError);
    expect(many.status).toBe(400);
    expect(many.message).toContain("config.methods: 2,000 methods, over the limit of 20 methods per launch");
    expect(many.message).toContain("config.repeats: 20 repeats, over the limit of 5 repeats per launch");
    expect(many.message).toContain("an admin can raise it on Admin → Settings");
    const repeats = refusal(() => launchExperiment(t.db, { name: "x", datasetId, config: config(1, 6), createdBy: alice }));
    expect(repeats.message).toMatch(/^config\.repeats: 6 repeats, over the limit of 5/);
    expect(experimentCount()).toBe(before);
  });

  it("too many jobs is refused; the dry run shows N jobs of max M and what is over; an admin raises it", () => {
    raise({ maxJobs: items * 3 - 1 });
    const cfg = config(3);
    const est = dryRun(t.db, datasetId, cfg);
    expect(est.limits).toMatchObject({ jobs: items * 3, methods: 3, repeats: 1, max: { maxJobs: items * 3 - 1 } });
    expect(est.limits.over).toEqual([
      `this launch would create ${items * 3} jobs (items × methods × repeats), over the limit of ${items * 3 - 1} jobs per launch`,
    ]);
    const e = refusal(() => launchExperiment(t.db, { name: "x", datasetId, config: cfg, createdBy: alice }));
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toContain(`over the limit of ${items * 3 - 1} jobs per launch`);
    raise({ maxJobs: items * 3 });
    expect(dryRun(t.db, datasetId, cfg).limits.over).toEqual([]);
    const { id, jobs } = launchExperiment(t.db, { name: "fits", datasetId, config: cfg, createdBy: alice });
    expect(jobs).toBe(items * 3);
    cancelExperiment(t.db, id);
    raise({ maxJobs: LIMIT_DEFAULTS.maxJobs });
  });

  it("`pal run --over-limit` (limits: override) skips the per-launch limits", () => {
    const { id, jobs } = launchExperiment(t.db, { name: "cli", datasetId, config: config(25), limits: "override" });
    expect(jobs).toBe(items * 25);
    cancelExperiment(t.db, id);
  });

  it("Admin → Settings form: a bad or too-high value is a 400 naming the field; a good one is saved", async () => {
    const form = (v: Partial<Record<keyof ExperimentLimits, string>>) => {
      const f = new FormData();
      for (const [k, x] of Object.entries({ maxMethods: "20", maxRepeats: "5", maxJobs: "250000", launchesPerMinute: "10", ...v }))
        f.append(k, x);
      return f;
    };
    expect(await actionResult(() => saveLimitsForm(t.db, form({ maxJobs: "lots" }), alice))).toMatchObject({
      status: 400,
      error: "maxJobs: expected a whole number",
    });
    expect(await actionResult(() => saveLimitsForm(t.db, form({ maxJobs: "9000000" }), alice))).toMatchObject({
      status: 400,
      error: "maxJobs: at most 5,000,000",
    });
    expect(getExperimentLimits(t.db)).toEqual(LIMIT_DEFAULTS);
    expect(await actionResult(() => saveLimitsForm(t.db, form({ maxJobs: "400000" }), alice))).toMatchObject({
      ok: "Experiment limits saved.",
    });
    expect(getExperimentLimits(t.db).maxJobs).toBe(400_000);
    raise({ maxJobs: LIMIT_DEFAULTS.maxJobs });
  });

  it("a limit outside 1..ceiling is refused, naming it", () => {
    expect(() => setExperimentLimits(t.db, { ...LIMIT_DEFAULTS, maxRepeats: 21 }, alice)).toThrow(/at most 20/);
    expect(() => setExperimentLimits(t.db, { ...LIMIT_DEFAULTS, maxJobs: 0 }, alice)).toThrow(/at least 1/);
  });

  it("a launch body over 64 KB (the probe's 77 KB config) is a 413 before it is parsed", async () => {
    const body = JSON.stringify({ datasetId, config: config(2000, 20) });
    expect(body.length).toBeGreaterThan(LAUNCH_BODY_LIMIT);
    const req = new Request("http://x/api/experiments", { method: "POST", body, headers: { "content-type": "application/json" } });
    await expect(readJsonBody(req, LAUNCH_BODY_LIMIT)).rejects.toMatchObject({ status: 413 });
  });
});

describe("launches per user per minute", () => {
  it("the launch past the limit is a 429 naming the limit; other users and the CLI are not held back; the window slides", () => {
    raise({ launchesPerMinute: 3 });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(launchExperiment(t.db, { name: `l${i}`, datasetId, config: config(1), createdBy: bob }).id);
    const before = experimentCount();
    const e = refusal(() => launchExperiment(t.db, { name: "l3", datasetId, config: config(1), createdBy: bob }));
    expect(e).toBeInstanceOf(TooManyRequestsError);
    expect(e.status).toBe(429);
    expect(e.message).toMatch(
      /^launch limit reached: at most 3 launches per user per minute; try again in \d+ s, or an admin can raise it/,
    );
    expect(experimentCount()).toBe(before);
    ids.push(launchExperiment(t.db, { name: "alice", datasetId, config: config(1), createdBy: alice }).id);
    ids.push(launchExperiment(t.db, { name: "cli", datasetId, config: config(1), createdBy: null }).id);
    // A minute later the oldest launches have left the window.
    t.db.$client.prepare("UPDATE experiments SET created_at = created_at - 61000 WHERE created_by = ?").run(bob);
    ids.push(launchExperiment(t.db, { name: "later", datasetId, config: config(1), createdBy: bob }).id);
    for (const id of ids) cancelExperiment(t.db, id);
    raise({ launchesPerMinute: LIMIT_DEFAULTS.launchesPerMinute });
  });
});

describe("jobs created in chunks off the request path", () => {
  it("a launch writes no job; the preparer writes chunks of at most 2,000 rows, giving the event loop back between them", async () => {
    raise({ maxMethods: 500, maxRepeats: 20, maxJobs: 1_000_000 });
    const { id, jobs } = launchExperiment(t.db, { name: "big", datasetId, config: sized(10 * PREPARE_CHUNK), createdBy: alice });
    expect(jobs).toBeGreaterThanOrEqual(10 * PREPARE_CHUNK);
    expect(getExperimentRow(t.db, id)).toMatchObject({ status: "preparing", plannedJobs: jobs });
    expect(jobCount(id)).toBe(0);
    expect(getExperimentRow(t.db, id).datasetHash).toBe(""); // hashed by the preparer, off the request path
    await expect(runExperiment(t.db, id, {} as never)).rejects.toThrow(/still being prepared/);

    // Another "request" waiting on the event loop is served between chunks.
    let served = 0;
    let preparing = true;
    const other = (async () => {
      while (preparing) {
        await new Promise((r) => setImmediate(r));
        served++;
      }
    })();
    const sizes: number[] = [];
    let last = 0;
    const outcome = await prepareJobs(t.db, id, {
      pause: async () => {
        const n = jobCount(id);
        sizes.push(n - last);
        last = n;
        await new Promise((r) => setImmediate(r));
      },
    });
    preparing = false;
    await other;
    expect(outcome).toBe("queued");
    expect(jobCount(id)).toBe(jobs);
    // The data set's content hash, read in pages by the preparer, equals the one-pass hash.
    expect(getExperimentRow(t.db, id).datasetHash).toBe(datasetHash(t.db, datasetId, "palset"));
    expect(await datasetHashInPages(t.db, datasetId, "palset", async () => {}, 7)).toBe(datasetHash(t.db, datasetId, "palset"));
    expect(sizes.length).toBeGreaterThanOrEqual(Math.floor(jobs / PREPARE_CHUNK) - 1);
    expect(Math.max(...sizes)).toBe(PREPARE_CHUNK);
    expect(served).toBeGreaterThanOrEqual(sizes.length);
    expect(getExperimentRow(t.db, id).status).toBe("queued");
    cancelExperiment(t.db, id);
  });

  it("resumes after a crash mid-way: the rest is created once, nothing twice", async () => {
    const { id, jobs } = launchExperiment(t.db, { name: "crash", datasetId, config: sized(7000), createdBy: alice });
    expect(await prepareJobs(t.db, id, { maxChunks: 2 })).toBe("stopped"); // the process dies after two chunks
    expect(jobCount(id)).toBe(2 * PREPARE_CHUNK);
    expect(getExperimentRow(t.db, id).status).toBe("preparing");
    expect(await prepareJobs(t.db, id)).toBe("queued"); // the restarted server's preparer
    expect(jobCount(id)).toBe(jobs);
    const distinct = t.db.$client
      .prepare("SELECT count(*) AS n FROM (SELECT DISTINCT replicate, method, task, item_key FROM jobs WHERE experiment_id = ?)")
      .get(id) as { n: number };
    expect(distinct.n).toBe(jobs);
    cancelExperiment(t.db, id);
  });

  it("cancelled or paused while preparing: preparation stops; a resume prepares the rest, then it is queued", async () => {
    const { id, jobs } = launchExperiment(t.db, { name: "ctl", datasetId, config: sized(5000), createdBy: alice });
    expect(await prepareJobs(t.db, id, { maxChunks: 1 })).toBe("stopped");
    cancelExperiment(t.db, id);
    expect(await prepareJobs(t.db, id)).toBe("stopped");
    expect(jobCount(id)).toBe(PREPARE_CHUNK);
    resumeExperiment(t.db, id);
    expect(getExperimentRow(t.db, id).status).toBe("preparing");
    pauseExperiment(t.db, id);
    expect(prepareJobsSync(t.db, id)).toBe("stopped");
    resumeExperiment(t.db, id);
    expect(prepareJobsSync(t.db, id)).toBe("queued");
    expect(jobCount(id)).toBe(jobs);
    const queued = t.db.$client.prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status = 'queued'").get(id) as {
      n: number;
    };
    expect(queued.n).toBe(jobs);
  });

  it("createExperiment (pal run, tests) prepares at once and returns a queued experiment", () => {
    const { id, jobs } = createExperiment(t.db, { name: "now", datasetId, config: config(2) });
    expect(getExperimentRow(t.db, id).status).toBe("queued");
    expect(jobCount(id)).toBe(jobs);
  });
});
