import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI, type ChatRequest } from "@/test/fake-openai";
import { experimentReplies as responder, firstMessage as first } from "@/test/experiment-replies";
import { ModelClient } from "@/lib/llm/client";
import { llmCalls } from "@/db/schema";
import { bindDeps } from "./deps";
import { knownMethod } from "./method-choices";
import { importPalset } from "@/lib/datasets/palset/import";
import { PALSET_EN } from "@/test/fixtures";
import { jobs, jobScores, datasets } from "@/db/schema";
import { createExperiment } from "./create";
import { dryRun } from "./dry-run";
import { runExperiment, type WorkerDeps } from "./worker";
import { experimentResults } from "./results";
import { applyPairwiseTieMargin } from "@/lib/annotation/calibration";
import { claimJob } from "./lease";
import { cancelExperiment, pauseExperiment, resumeExperiment } from "./control";
import { listQueryTopics, loadPalItem } from "@/lib/tasks/palset-items";
import { memPalBleu } from "@/lib/metrics";
import path from "node:path";
import fs from "node:fs";

const text = (r: ChatRequest) => r.messages.map((m) => String(m.content)).join("\n");
describe("experiments engine against the fake OpenAI server", () => {
  let t: ReturnType<typeof tempDb>;
  let fake: FakeOpenAI;
  let datasetId: number;
  let deps: WorkerDeps;

  beforeAll(async () => {
    t = tempDb();
    const dir = PALSET_EN;
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(dir, f));
    await importPalset(t.db, { paths: files, name: "en", lang: "en" });
    datasetId = t.db.select().from(datasets).get()!.id;
    fake = await startFakeOpenAI();
    fake.setResponder(responder());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 2000 }) });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("scores requirement and solution items exactly, regenerating an invalid selection", async () => {
    const users = [t.db.select().from(jobs).all().length === 0 ? undefined : undefined].filter(Boolean);
    void users;
    const { id } = createExperiment(t.db, {
      name: "e1",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement", "solution"] },
    });
    const before = fake.chatRequests.length;
    expect(await runExperiment(t.db, id, deps, { concurrency: 2 })).toBe("done");
    const res = experimentResults(t.db, id);
    const req = res.results.find((r) => r.task === "requirement")!;
    const sol = res.results.find((r) => r.task === "solution")!;
    const errs = t.db
      .select({ e: jobs.error })
      .from(jobs)
      .where(eq(jobs.experimentId, id))
      .all()
      .map((j) => j.e)
      .filter(Boolean);
    expect(errs).toEqual([]);
    expect(req.failed).toBe(0);
    // BLEU per item against its reference, independently, then the mean ×100.
    const items = t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();
    const reqItems = items.filter((j) => j.task === "requirement");
    const expB1 = reqItems.map(
      (j) => memPalBleu(loadPalItem(t.db, datasetId, j.itemKey).requirement, "The user wants a plan for the weekend.")[0] * 100,
    );
    expect(req.metrics.bleu1).toBeCloseTo(expB1.reduce((s, x) => s + x, 0) / expB1.length, 10);
    expect(req.metrics.gscore).toBe(75); // 1.5 × 50
    // Selection: ids 1 and 2 are whatever the candidates' labels say: recompute from the data.
    const expected = items
      .filter((j) => j.task === "solution")
      .map((j) => {
        const c = loadPalItem(t.db, datasetId, j.itemKey).candidates;
        const pts = { pos: 1, neg: -1, neu: 0 } as const;
        return pts[c[0].feedback] + pts[c[1].feedback];
      });
    expect(sol.metrics.selection).toBeCloseTo((expected.reduce((s, x) => s + x, 0) / expected.length) * 50, 10);
    // Every solution item asked twice for a selection (the duplicate id was regenerated).
    const selCalls = fake.chatRequests.slice(before).filter((r) => text(r).includes('"selected_solutions"'));
    expect(selCalls.length).toBe(2 * expected.length);
    // The invalid first answers are in the ledger under their jobs, with the reason.
    const invalid = t.db.select().from(llmCalls).where(eq(llmCalls.status, "invalid")).all();
    expect(invalid.length).toBe(expected.length);
    expect(invalid.every((c) => c.jobId !== null && /different ids/.test(c.error ?? ""))).toBe(true);
    void jobScores;
    // No reference or implicit need reached an assistant prompt.
    const it0 = loadPalItem(t.db, datasetId, reqItems[0].itemKey);
    const assistantPrompts = fake.chatRequests
      .filter((r) => /requirement|solution/.test(first(r)) && !first(r).includes('"score"'))
      .map(text);
    for (const p of assistantPrompts.filter((p) => p.includes(it0.userQuery))) {
      for (const need of it0.implicitNeeds) expect(p).not.toContain(need);
      expect(p).not.toContain(it0.requirement);
    }
  });

  it("repeats are distinct paid calls: every run's answers and judgments carry their own replicate index", async () => {
    const { id } = createExperiment(t.db, {
      name: "rep",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"], repeats: 2 },
    });
    expect(await runExperiment(t.db, id, deps)).toBe("done");
    const byJob = new Map(
      t.db
        .select()
        .from(jobs)
        .where(eq(jobs.experimentId, id))
        .all()
        .map((j) => [j.id, j.replicate]),
    );
    const calls = t.db
      .select()
      .from(llmCalls)
      .all()
      .filter((c) => c.jobId !== null && byJob.has(c.jobId));
    const answers = calls.filter((c) => c.purpose === "vanilla.respond.query");
    expect(answers.length).toBe(byJob.size);
    // The second run's answers are its own requests (replicate 1), not the first run's cached replies.
    for (const c of answers) expect(c.replicate).toBe(byJob.get(c.jobId!));
    expect(answers.filter((c) => byJob.get(c.jobId!) === 1).every((c) => c.replicate === 1)).toBe(true);
    expect(new Set(answers.map((c) => c.cacheKey)).size).toBe(answers.length);
  });

  it("dry run counts calls per method and task without calling the model", () => {
    const before = fake.chatRequests.length;
    const d = dryRun(t.db, datasetId, {
      methods: [{ name: "vanilla" }, { name: "vanilla-log" }],
      tasks: ["requirement", "dialogue"],
      users: ["0000"],
    });
    expect(fake.chatRequests.length).toBe(before);
    const n = listQueryTopics(t.db, datasetId, ["0000"]).length;
    expect(n).toBeGreaterThan(1);
    const r = d.rows.find((x) => x.method === "vanilla" && x.task === "requirement")!;
    expect(r.items).toBe(n);
    expect(r.calls).toEqual({ assistant: n, "user-simulator": 0, judge: n, total: 2 * n });
    expect(d.rows.find((x) => x.method === "vanilla~vanilla-log")!.calls.judge).toBe(n * 12);
    // Tokens: this database's average per role where it has paid calls enough, else the task's guess.
    const tok = (role: "assistant" | "judge", guess: number) => d.tokenBasis[role]?.prompt ?? guess;
    expect(r.promptTokens).toBe(n * tok("assistant", 1800) + n * tok("judge", 1800));
    expect(d.tokenBasis.judge?.calls ?? 0).toBeGreaterThanOrEqual(d.tokenBasis.judge ? 20 : 0);
  });

  it("dialogue: FairEval with six distinct judge calls per pair and dimension; the simulator sees no preference in requirement turns", async () => {
    const { id } = createExperiment(t.db, {
      name: "e2",
      datasetId,
      config: { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["dialogue"], users: ["0000"], reference: "vanilla" },
    });
    const before = fake.chatRequests.length;
    expect(await runExperiment(t.db, id, deps, { concurrency: 3 })).toBe("done");
    const res = experimentResults(t.db, id);
    const n = listQueryTopics(t.db, datasetId, ["0000"]).length;
    expect(res.pairwise).toMatchObject([
      { a: "vanilla", b: "vanilla-log", dimension: "requirement", win: n, tie: 0, lose: 0, runs: 1, topics: n },
      { a: "vanilla", b: "vanilla-log", dimension: "preference", win: n, tie: 0, lose: 0, runs: 1, topics: n },
    ]);
    // A tie margin applied after the run (tie-margin calibration) re-derives W/T/L from the stored means, no new call.
    const calls = fake.chatRequests.length;
    applyPairwiseTieMargin(t.db, id, 10, "campaign 1, run 1");
    const wide = experimentResults(t.db, id);
    expect(wide.pairwise.map((p) => [p.win, p.tie, p.lose])).toEqual([
      [0, n, 0],
      [0, n, 0],
    ]);
    expect(wide.pairwiseTieMargin).toEqual({ margin: 10, source: "campaign 1, run 1" });
    applyPairwiseTieMargin(t.db, id, null, null);
    expect(experimentResults(t.db, id).pairwise).toEqual(res.pairwise);
    expect(fake.chatRequests.length).toBe(calls);
    const judge = fake.chatRequests.slice(before).filter((r) => text(r).includes('"assistant-1": <score>'));
    expect(judge.length).toBe(n * 2 * 6);
    // Six separately paid calls per pair, item and dimension: distinct replicate indices, distinct cache keys, no cache hit.
    const pairJob = t.db
      .select()
      .from(jobs)
      .where(eq(jobs.experimentId, id))
      .all()
      .find((j) => j.phase === 1)!;
    const paid = t.db
      .select()
      .from(llmCalls)
      .where(eq(llmCalls.jobId, pairJob.id))
      .all()
      .filter((c) => c.purpose === "dialogue.judge.requirement");
    expect(paid.length).toBe(6);
    expect(new Set(paid.map((c) => c.replicate)).size).toBe(6);
    expect(new Set(paid.map((c) => c.cacheKey)).size).toBe(6);
    expect(paid.every((c) => !c.cacheHit && c.status === "ok")).toBe(true);
    for (const r of fake.chatRequests.slice(before).filter((r) => text(r).includes("You play a user"))) {
      const p = text(r);
      const reqTurn = /Requirement Confirmation|Topic Inquiry/.test(p.split("the type of what you say:")[1] ?? "");
      if (reqTurn) expect(p).not.toContain("general_preference");
      else expect(p).toContain("general_preference");
    }
  });

  it("dialogue with 3 repeats: W/T/L per pair is per run (W+T+L = the topics of one run), each run's counts kept", async () => {
    const { id } = createExperiment(t.db, {
      name: "e2-repeats",
      datasetId,
      config: { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["dialogue"], users: ["0000"], repeats: 3 },
    });
    expect(await runExperiment(t.db, id, deps, { concurrency: 3 })).toBe("done");
    const n = listQueryTopics(t.db, datasetId, ["0000"]).length;
    const res = experimentResults(t.db, id);
    expect(res.pairwise).toHaveLength(2);
    for (const p of res.pairwise) {
      // Summed over runs this was 3n (27 on the demo set); per run it is n.
      expect(p.win + p.tie + p.lose).toBe(n);
      expect(p).toMatchObject({ runs: 3, topics: n, win: n, sd: { win: 0, tie: 0, lose: 0 } });
      expect(p.perRun.map((r) => [r.replicate, r.win + r.tie + r.lose])).toEqual([
        [0, n],
        [1, n],
        [2, n],
      ]);
    }
  });

  it("a crashed worker's job is taken over after its lease; results equal an uninterrupted run", async () => {
    const cfg = { methods: [{ name: "vanilla" }], tasks: ["requirement"] };
    const { id: clean } = createExperiment(t.db, { name: "clean", datasetId, config: cfg });
    await runExperiment(t.db, clean, deps);
    const { id } = createExperiment(t.db, { name: "crash", datasetId, config: cfg });
    // A worker claims a job and dies (its lease of 1 ms runs out).
    const dead = claimJob(t.db, id, "dead-worker", 1, Date.now() - 10)!;
    expect(dead.status).toBe("running");
    expect(await runExperiment(t.db, id, deps)).toBe("done");
    const job = t.db.select().from(jobs).where(eq(jobs.id, dead.id)).get()!;
    expect(job.status).toBe("done");
    expect(job.attempts).toBe(2);
    expect(experimentResults(t.db, id).results[0].metrics).toEqual(experimentResults(t.db, clean).results[0].metrics);
  });

  it("a re-run from the cache writes each job's cache-hit rows with its result, and its usage counts them", async () => {
    const cfg = { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"] };
    const { id: first } = createExperiment(t.db, { name: "paid", datasetId, config: cfg });
    await runExperiment(t.db, first, deps);
    const before = fake.chatRequests.length;
    const { id } = createExperiment(t.db, { name: "cached", datasetId, config: cfg });
    expect(await runExperiment(t.db, id, deps)).toBe("done");
    expect(fake.chatRequests.length).toBe(before);
    const done = t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();
    expect(done.length).toBeGreaterThan(0);
    for (const j of done) {
      const rows = t.db.select().from(llmCalls).where(eq(llmCalls.jobId, j.id)).all();
      // The answer and the G-Score judge: two calls, both from the cache, none left unwritten.
      expect(rows.map((r) => [r.cacheHit, r.status])).toEqual([
        [true, "ok"],
        [true, "ok"],
      ]);
      expect(j.usage).toMatchObject({ calls: 2, cacheHits: 2, requests: 0 });
    }
  });

  const jobStatuses = (experimentId: number) =>
    t.db
      .select()
      .from(jobs)
      .where(eq(jobs.experimentId, experimentId))
      .all()
      .map((j) => j.status);

  it("pause stops the worker between jobs, cancel cancels queued jobs, resume finishes", async () => {
    const { id } = createExperiment(t.db, { name: "ctl", datasetId, config: { methods: [{ name: "vanilla" }], tasks: ["requirement"] } });
    pauseExperiment(t.db, id);
    expect(await runExperiment(t.db, id, deps)).toBe("paused");
    expect(new Set(jobStatuses(id))).toEqual(new Set(["queued"]));
    cancelExperiment(t.db, id);
    expect(new Set(jobStatuses(id))).toEqual(new Set(["cancelled"]));
    resumeExperiment(t.db, id);
    expect(await runExperiment(t.db, id, deps)).toBe("done");
    expect(experimentResults(t.db, id).results[0].failed).toBe(0);
  });

  it("refuses a bad config naming the field, and keeps the data set from being deleted under an experiment", () => {
    expect(() => createExperiment(t.db, { name: "x", datasetId, config: { methods: [], tasks: ["requirement"] } })).toThrow(
      /config\.methods/,
    );
    expect(() => createExperiment(t.db, { name: "x", datasetId, config: { methods: [{ name: "vanilla" }], tasks: ["hicupid"] } })).toThrow(
      /config\.tasks/,
    );
    const check = knownMethod();
    const bad = (methods: unknown[]) => () =>
      createExperiment(t.db, { name: "x", datasetId, config: { methods, tasks: ["requirement"] }, knownMethod: check });
    expect(bad([{ name: "nope" }])).toThrow(/config\.methods\[0\]\.name: unknown method "nope"/);
    expect(bad([{ name: "vanilla" }, { name: "vanilla-log", options: { x: 1 } }])).toThrow(/config\.methods\[1\]\.options/);
    expect(bad([{ name: "gold", options: { shots: 2 } }])).toThrow(/config\.methods\[0\]\.options\.shots/);
    expect(() => t.db.delete(datasets).where(eq(datasets.id, datasetId)).run()).toThrow(/used by an experiment/);
  });

  it("refuses a name that is not one line of visible text (CR/LF, U+202E, U+0001), as for data sets and campaigns (issue 30.6)", () => {
    const count = () => (t.db.$client.prepare("SELECT count(*) AS n FROM experiments").get() as { n: number }).n;
    const before = count();
    const config = { methods: [{ name: "vanilla" }], tasks: ["requirement"] };
    for (const [name, code] of [
      ["two\r\nlines", "000D"],
      ["evil\u202Egpj.exe", "202E"],
      ["bell\u0001", "0001"],
    ])
      expect(() => createExperiment(t.db, { name, datasetId, config })).toThrow(
        new RegExp(`^name: a name is one line of visible text; it holds the control character U\\+${code}`),
      );
    expect(() => createExperiment(t.db, { name: "   ", datasetId, config })).toThrow(/^name: required/);
    expect(count()).toBe(before);
  });
});
