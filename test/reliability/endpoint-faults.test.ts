/**
 * Reliability check 3: a model endpoint that misbehaves in every way the fake server (TEST DOUBLE) can:
 * hangs (the client's timeout fires), drops the connection before answering or mid-body, answers 429
 * with Retry-After, 500, a truncated JSON body, an HTML page. An experiment and an LLM judge run go
 * through the real model client over real HTTP into a real database. Each first attempt of a request
 * meets a fault, the next one is answered; the requests of one topic always fail.
 *
 * - both runs finish; the always-failing items carry a per-item error, every other item is scored;
 * - the ledger is exact: one row per request the endpoint saw, and its accepted and rejected replies
 *   are exactly the requests that returned a completion body;
 * - after a 429 the client waits at least the Retry-After before asking again.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { createExperiment } from "@/lib/experiments/create";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { runExperiment } from "@/lib/experiments/worker";
import { runLlmJudge } from "@/lib/annotation/llm-judge";
import { ModelClient } from "@/lib/llm/client";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type Fault, type FakeOpenAI } from "@/test/fake-openai";
import { campaignJudgeReplies } from "@/test/experiment-replies";
import { modelEnv } from "./app";
import { importDemoPalsetEn } from "@/test/demo-palset";

/** One of each, in turn, for the first attempt of each request. */
const FAULTS: Fault[] = [
  { kind: "hang" },
  { kind: "drop" },
  { kind: "midbody" },
  { kind: "status", status: 429, retryAfterSeconds: 1 },
  { kind: "status", status: 500 },
  { kind: "malformed" },
  { kind: "html" },
];
/** Every request about this topic fails, whatever the attempt. */
const DOOMED = "Plan a weekend trip";

describe("a misbehaving model endpoint", () => {
  const t = tempDb();
  let fake: FakeOpenAI;
  const seen = new Map<string, number>();
  const perModel = new Map<string, number>();
  let datasetId = 0;
  let campaignId = 0;
  let researcher = 0;

  beforeAll(async () => {
    const respond = campaignJudgeReplies();
    fake = await startFakeOpenAI({
      respond: (r) => respond(r),
      fault: (req: ChatRequest) => {
        const body = JSON.stringify(req);
        const n = seen.get(body) ?? 0;
        seen.set(body, n + 1);
        if (body.includes(DOOMED)) return { kind: "status", status: 500 };
        if (n > 0) return undefined;
        // In turn per model, so each run (the experiment's assistant, the judge) meets every kind whatever
        // order its requests arrive in (the spend guard sends a run's first calls one at a time).
        const k = perModel.get(req.model) ?? 0;
        perModel.set(req.model, k + 1);
        return FAULTS[k % FAULTS.length];
      },
    });
    for (const [k, v] of Object.entries(modelEnv(fake.baseURL))) vi.stubEnv(k, v);
    datasetId = await importDemoPalsetEn(t.db);
    researcher = (await createUser(t.db, { email: "f-r@pal.local", role: "researcher", password: "password-123" })).id;
    const a = (await createUser(t.db, { email: "f-a@pal.local", role: "annotator", password: "password-123" })).id;
    campaignId = createCampaign(
      t.db,
      {
        name: "faults",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: [a],
        source: {
          kind: "upload",
          fileName: "p.jsonl",
          text: fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8"),
        },
      },
      researcher,
    ).id;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("finishes both runs with per-item errors for the doomed items, waits out Retry-After, and keeps the ledger exact", async () => {
    // A short timeout for the hangs; two transport retries, so a doomed request gives up after three tries.
    const client = ModelClient.create(t.db, { timeoutMs: 2500, retries: 2, retryBaseMs: 5, retryMaxMs: 2000 });

    const { id } = createExperiment(t.db, {
      name: "faults",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"] },
      knownMethod: knownMethod(),
    });
    const status = await runExperiment(t.db, id, bindDeps(t.db, { client }), { concurrency: 4 });
    expect(["done", "paused"]).toContain(status);
    const jobs = t.db.$client.prepare("SELECT status, error FROM jobs WHERE experiment_id = ?").all(id) as Array<{
      status: string;
      error: string | null;
    }>;
    expect(jobs.length).toBeGreaterThan(0);
    // Every first attempt met a fault and every item still got its answer.
    expect(jobs.filter((j) => j.status !== "done")).toEqual([]);

    const judged = await runLlmJudge(t.db, client, campaignId, {}, researcher);
    const failures = t.db.$client
      .prepare(
        "SELECT i.external_id id, f.dimension, f.error FROM judge_failures f JOIN campaign_items i ON i.id = f.item_id WHERE f.run_id = ?",
      )
      .all(judged.runId) as Array<{ id: string; dimension: string; error: string }>;
    const doomedItems = (
      t.db.$client.prepare("SELECT external_id id, content FROM campaign_items WHERE campaign_id = ?").all(campaignId) as Array<{
        id: string;
        content: string;
      }>
    )
      .filter((i) => i.content.includes(DOOMED))
      .map((i) => i.id);
    expect(doomedItems.length).toBeGreaterThan(0);
    // The run finished; the doomed items failed with the reason, every other item and dimension is judged.
    expect(judged.judged + judged.failed).toBe(judged.total);
    expect(new Set(failures.map((f) => f.id))).toEqual(new Set(doomedItems));
    for (const f of failures) expect(f.error).toMatch(/500|endpoint failed/);
    expect(judged.failed).toBe(failures.length);

    // The ledger: one row per request the endpoint saw (nothing lost, nothing counted twice)...
    const rows = t.db.$client.prepare("SELECT status, error FROM llm_calls WHERE cache_hit = 0").all() as Array<{
      status: string;
      error: string | null;
    }>;
    expect(fake.log.length).toBeGreaterThan(FAULTS.length * 3);
    expect(rows.length).toBe(fake.log.length);
    // ...its accepted replies are exactly the completions that came back (this script's replies are all
    // valid: nothing to regenerate), and every faulted request is a transport retry or a final failure.
    const completions = fake.log.filter((r) => r.fault === undefined && r.status === 200).length;
    expect(rows.filter((r) => r.status === "ok").length).toBe(completions);
    expect(rows.filter((r) => r.status === "invalid")).toEqual([]);
    expect(rows.filter((r) => r.status === "retry" || r.status === "failed").length).toBe(fake.log.filter((r) => r.fault).length);
    // Each kind of fault was met, and recorded as a transport retry with its reason.
    const kinds = new Set(fake.log.map((r) => r.fault).filter(Boolean));
    expect([...kinds].sort()).toEqual(["drop", "hang", "html", "malformed", "midbody", "status"]);
    expect(rows.some((r) => r.status === "retry" && /timed? ?out/i.test(r.error ?? ""))).toBe(true);

    // After each 429 the same request came back no sooner than its Retry-After (1 s).
    // (Only the experiment's requests: a judge's identical samples are separate calls with the same body.)
    const limited = fake.log.filter((r) => r.status === 429 && r.body.includes('"model":"fake-assistant"'));
    expect(limited.length).toBeGreaterThan(0);
    const tooSoon = limited
      .map((r) => {
        const next = fake.log.find((x) => x.body === r.body && x.receivedAt > r.receivedAt);
        return next ? next.receivedAt - r.answeredAt! : Infinity;
      })
      .filter((gap) => gap < 1000);
    expect(tooSoon).toEqual([]);
    console.log(
      `endpoint faults: ${fake.log.length} requests (${fake.log.filter((r) => r.fault).length} faulted) for ${jobs.length} experiment items and ${judged.total} judge verdicts; ` +
        `${failures.length} per-item judge errors; ledger rows = requests`,
    );
  });
});
