/**
 * Reliability check 1: the server is SIGKILLed while 20 annotators submit labels over HTTP and while an
 * experiment, a memory build and an LLM judge run are in flight; then started again on the same file.
 *
 * - every label the server acknowledged (200) is stored, with the value sent;
 * - the three runs resume by themselves and end with exactly the results of an uninterrupted run (the
 *   same scenario run in this process on a second database);
 * - nothing is paid twice: no request accepted twice in the ledger, and ledger rows match the requests
 *   the fake endpoint answered (all of them after the restart; before it, all but the few in flight);
 * - `PRAGMA integrity_check` and `foreign_key_check` pass.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDb, type Db } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { createExperiment } from "@/lib/experiments/create";
import { startFromKindPreset } from "@/lib/experiments/presets";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { runExperiment } from "@/lib/experiments/worker";
import { buildMemory } from "@/lib/assistants/core/build";
import { datasetById, resolveUsers } from "@/lib/assistants/core/sessions";
import { runLlmJudge } from "@/lib/annotation/llm-judge";
import { ModelClient } from "@/lib/llm/client";
import { ROOT } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { baselineResponder } from "@/test/baseline-responder";
import { campaignJudgeReplies } from "@/test/experiment-replies";
import { dbProblems, modelEnv, PASSWORD, postJson, signIn, startApp, tempDir, waitUntil, type App } from "./app";
import { experimentOutcome, judgeOutcome, memoryOutcome, paidRows, paidTwice } from "./outcomes";
import { importDemoPalsetEn } from "@/test/demo-palset";

const ANNOTATORS = 20;
const PER_ANNOTATOR = 12;
const EXPERIMENT = { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["requirement"], repeats: 1 };
const MEMORY_METHOD = "recursum";
const JUDGE_CAMPAIGN = "judge-me";
const respond = (() => {
  const judge = campaignJudgeReplies();
  return baselineResponder((r) => judge(r as ChatRequest));
})();
/** The live server's model is slow (the uninterrupted reference run's is not), so every run is mid-way at the kill. */
const slowly = (r: ChatRequest) => {
  const content = respond(r);
  return { content, delayMs: String(r.messages[0]?.content ?? "").includes('{"requirement": "..."}') ? 1000 : 300 };
};
const VALUES = ["Win", "Tie", "Lose"];
const valuesFor = (assignmentId: number) => ({ requirement: VALUES[assignmentId % 3], preference: VALUES[(assignmentId + 1) % 3] });

type Scenario = {
  researcher: number;
  annotators: Array<{ id: number; email: string; work: number[] }>;
  datasetId: number;
  judgeCampaign: number;
};

/** The same starting database for both runs: accounts, the demo PAL-Set, an annotation campaign and a small judge campaign. */
async function seed(db: Db): Promise<Scenario> {
  const researcher = (await createUser(db, { email: "rel-r@pal.local", role: "researcher", password: PASSWORD })).id;
  const annotators: Scenario["annotators"] = [];
  for (let i = 0; i < ANNOTATORS; i++) {
    const email = `rel-a${i}@pal.local`;
    annotators.push({ id: (await createUser(db, { email, role: "annotator", password: PASSWORD })).id, email, work: [] });
  }
  const datasetId = await importDemoPalsetEn(db);
  const items = (ANNOTATORS * PER_ANNOTATOR) / 2;
  const lines = Array.from({ length: items }, (_, i) =>
    JSON.stringify({
      id: `t${i}`,
      user_info: `user ${i}`,
      a: { system: "sys-a", output: `answer a ${i}` },
      b: { system: "sys-b", output: `answer b ${i}` },
    }),
  );
  createCampaign(
    db,
    {
      name: "labels",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: annotators.map((a) => a.id),
      source: { kind: "upload", fileName: "labels.jsonl", text: lines.join("\n") },
    },
    researcher,
  );
  for (const a of annotators)
    a.work = (
      db.$client.prepare("SELECT id FROM assignments WHERE annotator_id = ? ORDER BY position").all(a.id) as Array<{ id: number }>
    ).map((r) => r.id);
  const judgeCampaign = createCampaign(
    db,
    {
      name: JUDGE_CAMPAIGN,
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [annotators[0].id],
      source: {
        kind: "upload",
        fileName: "p.jsonl",
        text: fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8"),
      },
    },
    researcher,
  ).id;
  return { researcher, annotators, datasetId, judgeCampaign };
}

describe("SIGKILL of the server mid-work", () => {
  const tmp = tempDir("sigkill");
  const dbPath = path.join(tmp.dir, "live.db");
  const refPath = path.join(tmp.dir, "reference.db");
  let fake: FakeOpenAI;
  let app: App | null = null;
  let s: Scenario;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ respond: slowly });
    const db = openDb(dbPath);
    s = await seed(db);
    db.$client.close();
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    tmp.cleanup();
  });

  it("keeps every acknowledged label, resumes the runs to the uninterrupted results, pays nothing twice", async () => {
    const env = { ...modelEnv(fake.baseURL), PAL_WORKER_CONCURRENCY: "4" };
    app = await startApp(dbPath, env);
    let base = app.base;
    const researcher = await signIn(base, "rel-r@pal.local", PASSWORD);
    const jars = await Promise.all(s.annotators.map((a) => signIn(base, a.email, PASSWORD)));

    // The three runs, started as the pages start them.
    const exp = await postJson(base, researcher, "/api/experiments", { name: "crash", datasetId: s.datasetId, config: EXPERIMENT });
    expect(exp.status, await exp.clone().text()).toBe(201);
    const experimentId = ((await exp.json()) as { experiment: { id: number } }).experiment.id;
    const build = await postJson(base, researcher, "/api/memory/builds", { datasetId: s.datasetId, method: MEMORY_METHOD });
    expect(build.status, await build.clone().text()).toBe(202);
    const judge = await postJson(base, researcher, `/api/campaigns/${s.judgeCampaign}/llm-judge`, {});
    expect(judge.status, await judge.clone().text()).toBe(202);

    // 20 annotators submit, a little apart, so that submissions are in flight when the kill comes.
    const acked = new Map<number, Record<string, string>>();
    let killed = false;
    const next = s.annotators.map(() => 0);
    const annotate = (i: number) =>
      (async () => {
        const a = s.annotators[i];
        while (next[i] < a.work.length) {
          const id = a.work[next[i]];
          let r: Response;
          try {
            r = await postJson(base, jars[i], `/api/assignments/${id}`, {
              action: "submit",
              submissionId: `rel-submission-${id}`,
              values: valuesFor(id),
              ms: 500,
            });
          } catch {
            if (killed) return; // the server is gone: this submission was never acknowledged
            throw new Error(`submit ${id} failed before the kill`);
          }
          if (r.status !== 200) throw new Error(`submit ${id}: ${r.status} ${await r.text()}`);
          acked.set(id, valuesFor(id));
          next[i]++;
          // Paced so the kill lands while labels are still coming (a run's first calls go one at a time until one succeeds).
          await new Promise((res) => setTimeout(res, 150));
        }
      })();
    let failure: unknown = null;
    const firstWave = s.annotators.map((_, i) => annotate(i).catch((e) => void (failure ??= e)));

    // Kill when labels are half in and each run has paid some calls but none has finished.
    const watch = new Database(dbPath, { readonly: true, fileMustExist: true });
    const progress = () => ({
      experiment: (watch.prepare("SELECT status FROM experiments WHERE id = ?").get(experimentId) as { status: string }).status,
      jobCalls: (watch.prepare("SELECT count(*) n FROM llm_calls WHERE job_id IS NOT NULL AND cache_hit = 0").get() as { n: number }).n,
      build: (watch.prepare("SELECT status FROM memory_builds ORDER BY id DESC").get() as { status: string }).status,
      buildCalls: (watch.prepare("SELECT count(*) n FROM llm_calls WHERE memory_version_id IS NOT NULL").get() as { n: number }).n,
      judgeDone: (watch.prepare("SELECT finished_at f FROM judge_runs WHERE origin = 'llm'").get() as { f: number | null }).f !== null,
      judgeCalls: (watch.prepare("SELECT count(*) n FROM llm_calls WHERE judge_run_id IS NOT NULL").get() as { n: number }).n,
    });
    const total = ANNOTATORS * PER_ANNOTATOR;
    await waitUntil("labels and runs under way", () => {
      if (failure) throw failure;
      const p = progress();
      return acked.size >= total / 6 && p.jobCalls >= 1 && p.buildCalls >= 3 && p.judgeCalls >= 3;
    });
    const atKill = progress();
    console.log("at the kill:", JSON.stringify({ ...atKill, acked: acked.size }));
    killed = true;
    const killedAt = Date.now();
    await app.kill9();
    await Promise.all(firstWave);
    if (failure) throw failure;
    watch.close();
    // Each run was cut short, and so were the annotators.
    expect(atKill.experiment).toBe("running");
    expect(atKill.build).toBe("running");
    expect(atKill.judgeDone).toBe(false);
    expect(acked.size).toBeLessThan(total);
    const ackedAtKill = acked.size;

    // Restart on the same file; the annotators carry on (resending what was not acknowledged).
    const restartedAt = Date.now();
    app = await startApp(dbPath, env);
    base = app.base;
    const jars2 = await Promise.all(s.annotators.map((a) => signIn(base, a.email, PASSWORD)));
    jars.splice(0, jars.length, ...jars2);
    killed = false;
    await Promise.all(s.annotators.map((_, i) => annotate(i)));
    expect(acked.size).toBe(total);

    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      await waitUntil(
        "the experiment, the memory build and the judge run to finish after the restart",
        () => {
          const p = (() => {
            const e = db.prepare("SELECT status FROM experiments WHERE id = ?").get(experimentId) as { status: string };
            const b = db.prepare("SELECT status FROM memory_builds ORDER BY id DESC").get() as { status: string };
            const j = db.prepare("SELECT finished_at f FROM judge_runs WHERE origin = 'llm'").get() as { f: number | null };
            return { e: e.status, b: b.status, j: j.f };
          })();
          if (["failed", "cancelled"].includes(p.e) || p.b === "failed")
            throw new Error(`a run failed after the restart: ${JSON.stringify(p)}`);
          return p.e === "done" && p.b === "complete" && p.j !== null;
        },
        150_000,
      );

      // Every acknowledged label is there with the value sent (shown order = what was pressed).
      const stored = new Map<number, Record<string, string>>();
      for (const r of db.prepare("SELECT assignment_id a, dimension d, shown_value v FROM labels").all() as Array<{
        a: number;
        d: string;
        v: string;
      }>)
        stored.set(r.a, { ...stored.get(r.a), [r.d]: r.v });
      for (const [id, values] of acked) expect(stored.get(id), `assignment ${id}`).toEqual(values);
      expect(stored.size).toBe(total);
      const done = (
        db
          .prepare(
            "SELECT count(*) n FROM assignments a JOIN campaigns c ON c.id = a.campaign_id WHERE c.name = 'labels' AND a.status = 'done'",
          )
          .get() as { n: number }
      ).n;
      expect(done).toBe(total);

      // Nothing paid twice (a judge's identical samples are distinct replicates, so the ledger's
      // (cache key, replicate) is the identity of a paid call, not the request body); every request answered after the restart is in the ledger, and before it all
      // but those in flight when the process died.
      expect(paidTwice(db)).toEqual([]);
      const answered = (from: number, to: number) =>
        fake.log.filter((r) => r.receivedAt >= from && r.receivedAt < to && r.answeredAt !== null).length;
      expect(answered(restartedAt, Infinity)).toBe(paidRows(db, restartedAt));
      const lost = answered(0, killedAt) - (paidRows(db) - paidRows(db, restartedAt));
      expect(lost).toBeGreaterThanOrEqual(0);
      expect(lost).toBeLessThanOrEqual(12); // the calls in flight at the kill: worker lanes + build + judge items

      const live = { e: experimentOutcome(db, experimentId), m: memoryOutcome(db, MEMORY_METHOD), j: judgeOutcome(db, JUDGE_CAMPAIGN) };
      expect(live.e.length).toBeGreaterThan(0);
      expect(live.m.length).toBeGreaterThan(0);
      expect(live.j.length).toBeGreaterThan(0);

      // The uninterrupted run: the same scenario in this process, against its own fake endpoint.
      const refFake = await startFakeOpenAI({ respond });
      for (const [k, v] of Object.entries(modelEnv(refFake.baseURL))) vi.stubEnv(k, v);
      try {
        const ref = openDb(refPath);
        const rs = await seed(ref);
        const client = ModelClient.create(ref);
        const { id } = createExperiment(ref, {
          name: "crash",
          datasetId: rs.datasetId,
          config: startFromKindPreset(EXPERIMENT, "palset"),
          knownMethod: knownMethod(),
        });
        await runExperiment(ref, id, bindDeps(ref, { client }), { concurrency: 4 });
        const ds = datasetById(ref, rs.datasetId);
        await buildMemory(ref, { dataset: ds, method: MEMORY_METHOD, users: resolveUsers(ref, ds, undefined), llm: client });
        await runLlmJudge(ref, client, rs.judgeCampaign, {}, rs.researcher);
        const expected = {
          e: experimentOutcome(ref.$client, id),
          m: memoryOutcome(ref.$client, MEMORY_METHOD),
          j: judgeOutcome(ref.$client, JUDGE_CAMPAIGN),
        };
        ref.$client.close();
        expect(live.e).toEqual(expected.e);
        expect(live.m).toEqual(expected.m);
        expect(live.j).toEqual(expected.j);
      } finally {
        vi.unstubAllEnvs();
        await refFake.close();
      }
      console.log(
        `SIGKILL check: ${ackedAtKill}/${total} labels acknowledged at the kill, all ${total} stored after; ` +
          `${fake.log.length} model requests, ${lost} lost in flight and resent; runs resumed to the uninterrupted results`,
      );
    } finally {
      db.close();
    }
    await app.stop();
    app = null;
    expect(dbProblems(dbPath)).toEqual([]);
  });
});
