/**
 * Reliability check: judge calls sent as batches (OpenAI Batch API of the TEST DOUBLE) survive a server
 * restart mid-batch: a campaign's LLM judge run in batch mode, and an experiment with `judgeBatch`. The
 * real app (`next start`) submits both batches, the double holds them in_progress, the server is
 * SIGKILLed, started again on the same file, and only then are the batches released.
 *
 * - the restarted server resumes polling the batches it had submitted (no second batch, no online judge call);
 * - the verdicts and the experiment's results equal an online run's on a fresh database;
 * - nothing is paid twice: every request the endpoint answered is one ledger row, once.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDb, type Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { importPalset } from "@/lib/datasets/palset/import";
import { createExperiment } from "@/lib/experiments/create";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { runExperiment } from "@/lib/experiments/worker";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { runLlmJudge } from "@/lib/annotation/llm-judge";
import { ModelClient } from "@/lib/llm/client";
import { PALSET_EN, ROOT } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { campaignJudgeReplies } from "@/test/experiment-replies";
import { dbProblems, modelEnv, PASSWORD, postJson, signIn, startApp, tempDir, waitUntil, type App } from "./app";
import { experimentOutcome, judgeOutcome, paidTwice } from "./outcomes";

const CAMPAIGN = "batch-judge";
const EXPERIMENT = { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["requirement"], users: ["0000"], repeats: 1 };
/** The judge prompts of the campaign (FairEval pair) and of the experiment's requirement task (G-Score). */
const isJudge = (r: ChatRequest) => {
  const t = String(r.messages[0]?.content ?? "");
  return t.includes('"assistant-1": <score>') || t.includes('"score": <score>}');
};
type Seeded = { researcher: number; campaignId: number; datasetId: number };
const respond = (() => {
  const judge = campaignJudgeReplies();
  return (r: ChatRequest) => judge(r);
})();

/** The same starting database for the live and the reference run: a researcher and a pairwise campaign to judge. */
async function seed(db: Db): Promise<Seeded> {
  const researcher = (await createUser(db, { email: "rel-r@pal.local", role: "researcher", password: PASSWORD })).id;
  const annotator = (await createUser(db, { email: "rel-a@pal.local", role: "annotator", password: PASSWORD })).id;
  const campaignId = createCampaign(
    db,
    {
      name: CAMPAIGN,
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [annotator],
      source: {
        kind: "upload",
        fileName: "p.jsonl",
        text: fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8"),
      },
    },
    researcher,
  ).id;
  const files = fs
    .readdirSync(PALSET_EN)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(PALSET_EN, f));
  await importPalset(db, { paths: files, name: "en", lang: "en" });
  return { researcher, campaignId, datasetId: db.select().from(datasets).get()!.id };
}

type BatchRow = {
  id: number;
  status: string;
  remote_id: string | null;
  requests: number;
  updated_at: number | null;
  judge_run_id: number | null;
  experiment_id: number | null;
};

describe("batch judge calls across a server restart", () => {
  const tmp = tempDir("batch-restart");
  const dbPath = path.join(tmp.dir, "live.db");
  const refPath = path.join(tmp.dir, "reference.db");
  let fake: FakeOpenAI;
  let app: App | null = null;
  let s: Seeded;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ respond });
    const db = openDb(dbPath);
    s = await seed(db);
    db.$client.close();
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    tmp.cleanup();
  });

  // It builds the app first when the build is missing or stale (minutes on a shared machine).
  it(
    "resumes polling after a SIGKILL, ingests each batch once, and gives the online runs' verdicts and results",
    { timeout: 900_000 },
    async () => {
      const env = { ...modelEnv(fake.baseURL), PAL_BATCH_POLL_MS: "300" };
      fake.batch.hold(true);
      app = await startApp(dbPath, env);
      const jar = await signIn(app.base, "rel-r@pal.local", PASSWORD);
      const r = await postJson(app.base, jar, `/api/campaigns/${s.campaignId}/llm-judge`, { batch: true });
      expect(r.status, await r.clone().text()).toBe(202);
      const exp = await postJson(app.base, jar, "/api/experiments", {
        name: "batched",
        datasetId: s.datasetId,
        config: { ...EXPERIMENT, judgeBatch: true },
      });
      expect(exp.status, await exp.clone().text()).toBe(201);
      const experimentId = ((await exp.json()) as { experiment: { id: number } }).experiment.id;

      const watch = new Database(dbPath, { readonly: true, fileMustExist: true });
      const batches = () => watch.prepare("SELECT * FROM llm_batches ORDER BY id").all() as BatchRow[];
      const labels = () => (watch.prepare("SELECT count(*) n FROM judge_labels").get() as { n: number }).n;
      const experimentStatus = () =>
        (watch.prepare("SELECT status FROM experiments WHERE id = ?").get(experimentId) as { status: string }).status;
      try {
        // Both submitted (the experiment's once its answers are in, online) and held in_progress by the endpoint.
        await waitUntil("both batches to be submitted", () => batches().filter((b) => b.remote_id !== null).length === 2, 300_000);
        const submitted = batches();
        expect(submitted.map((b) => b.remote_id)).toEqual(fake.batch.batches.map((b) => b.id));
        expect(submitted[0].judge_run_id).not.toBeNull();
        expect(submitted[1].experiment_id).toBe(experimentId);
        const requests = submitted.reduce((n, b) => n + b.requests, 0);
        // The experiment page's progress shows its batch and the items waiting for it.
        const prog = (await (
          await fetch(`${app.base}/api/experiments/${experimentId}?only=progress`, { headers: { cookie: jar.header() } })
        ).json()) as {
          progress: { batches: Array<{ id: number; status: string; requests: number }>; waitingForBatch: number };
        };
        expect(prog.progress.batches.map((b) => [b.id, b.requests])).toEqual([[submitted[1].id, submitted[1].requests]]);
        expect(prog.progress.waitingForBatch).toBeGreaterThan(0);
        await app.kill9();
        app = null;
        expect(fake.batch.batches.map((b) => b.status)).toEqual(["in_progress", "in_progress"]);
        expect(labels()).toBe(0);
        expect(experimentStatus()).toBe("running");
        expect(fake.chatRequests.filter(isJudge)).toHaveLength(0); // no judge call was sent online
        const answersBefore = fake.chatRequests.length;

        // Restarted on the same file: the server polls the same batches again by itself (their rows are updated).
        const restartedAt = Date.now();
        app = await startApp(dbPath, env);
        await waitUntil("the restarted server to poll both open batches", () => batches().every((b) => (b.updated_at ?? 0) > restartedAt));
        expect(batches()).toHaveLength(2);
        expect(fake.chatRequests).toHaveLength(answersBefore); // the experiment's answers came from the cache
        await fake.batch.release();
        await waitUntil(
          "the judge run and the experiment to finish from the ingested batches",
          () =>
            (watch.prepare("SELECT finished_at f FROM judge_runs WHERE origin = 'llm'").get() as { f: number | null }).f !== null &&
            experimentStatus() === "done",
        );
        expect(batches().map((b) => b.status)).toEqual(["ingested", "ingested"]);
        expect(fake.batch.batches).toHaveLength(2);

        // Paid once: every judge request the endpoint answered came in a batch; every request is one ledger row.
        expect(fake.chatRequests.filter(isJudge)).toHaveLength(requests);
        const paid = watch.prepare("SELECT count(*) n FROM llm_calls WHERE cache_hit = 0").get() as { n: number };
        expect(paid.n).toBe(fake.chatRequests.length);
        expect(paidTwice(watch)).toEqual([]);

        // The online runs on a fresh database, against their own endpoint: the same verdicts and results.
        const live = { j: judgeOutcome(watch, CAMPAIGN), e: experimentOutcome(watch, experimentId) };
        expect(live.j.length).toBeGreaterThan(0);
        expect(live.e.length).toBeGreaterThan(0);
        const refFake = await startFakeOpenAI({ respond });
        for (const [k, v] of Object.entries(modelEnv(refFake.baseURL))) vi.stubEnv(k, v);
        try {
          const ref = openDb(refPath);
          const rs = await seed(ref);
          const client = ModelClient.create(ref);
          await runLlmJudge(ref, client, rs.campaignId, {}, rs.researcher);
          const { id } = createExperiment(ref, {
            name: "batched",
            datasetId: rs.datasetId,
            config: EXPERIMENT,
            knownMethod: knownMethod(),
          });
          expect(await runExperiment(ref, id, bindDeps(ref, { client }), { concurrency: 4 })).toBe("done");
          const expected = { j: judgeOutcome(ref.$client, CAMPAIGN), e: experimentOutcome(ref.$client, id) };
          ref.$client.close();
          expect(live).toEqual(expected);
          expect(refFake.chatRequests.filter(isJudge)).toHaveLength(requests);
          expect(refFake.chatRequests).toHaveLength(fake.chatRequests.length);
        } finally {
          vi.unstubAllEnvs();
          await refFake.close();
        }
        console.log(
          `batch restart check: ${requests} judge requests in 2 batches (campaign ${submitted[0].requests}, experiment ${submitted[1].requests}) ` +
            `polled across a SIGKILL, paid once; ${fake.chatRequests.length} requests in all, as many as the online runs`,
        );
      } finally {
        watch.close();
      }
      await app?.stop();
      app = null;
      expect(dbProblems(dbPath)).toEqual([]);
    },
  );
});
