/**
 * What the browser does through the API, at the library level: estimate, launch (then the server's
 * worker runs it), pause/cancel/resume, star items, case studies as Markdown, results as CSV.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { experiments, jobs } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { loadPalItem } from "@/lib/tasks/palset-items";
import { bindDeps } from "./deps";
import { controlExperiment, estimateOrLaunch, starJob } from "./service";
import { startServerWorker, stopPreparer, stopServerWorker } from "./server-worker";
import { prepareJobsSync } from "./prepare";
import { experimentProgress } from "./progress";
import { caseStudiesMarkdown } from "./case-studies";
import { methodDisplayName } from "./method-choices";
import { exportExperiment } from "./export";
import { claimJob } from "./lease";
import { cancelExperiment } from "./control";
import { experimentResults } from "./results";
import { llmCalls } from "@/db/schema";

describe("experiments from the browser's side", () => {
  let t: ReturnType<typeof tempDb>;
  let fake: FakeOpenAI;
  let datasetId: number;
  // No preset named: the run starts from the Mem-PAL preset all the same (issue 31), overriding what it names.
  const config = { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["requirement"], users: ["0000"], repeats: 1 };

  beforeAll(async () => {
    t = tempDb();
    datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" })).datasetId;
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  });
  afterAll(async () => {
    stopServerWorker();
    stopPreparer();
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("refuses to launch without a configured model, naming the role, and creates nothing", () => {
    vi.stubEnv("PAL_MODEL_ASSISTANT", "");
    expect(() => estimateOrLaunch(t.db, { datasetId, config }, null)).toThrow(/no model configured for "assistant"/);
    expect(t.db.select().from(experiments).all()).toEqual([]);
    expect(() => estimateOrLaunch(t.db, { datasetId, config: { ...config, tasks: ["nope"] }, dryRun: true }, null)).toThrow(
      /body|config\.tasks/,
    );
    expect(() => estimateOrLaunch(t.db, { datasetId: "1", config }, null)).toThrow(/body\.datasetId/);
  });

  it("estimates without calls, launches, and the server's worker runs it to the end", async () => {
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const est = estimateOrLaunch(t.db, { datasetId, config, dryRun: true }, null);
    expect(est.estimate!.total.calls.total).toBe(est.estimate!.total.items * 2);
    expect(fake.chatRequests.length).toBe(0);

    const { experiment } = estimateOrLaunch(t.db, { datasetId, config, name: "from the browser" }, null);
    expect(experiment!.jobs).toBe(est.estimate!.total.items);
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50 });
    const deadline = Date.now() + 20_000;
    while (experimentProgress(t.db, experiment!.id).status !== "done" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const p = experimentProgress(t.db, experiment!.id);
    expect(p).toMatchObject({ status: "done", done: experiment!.jobs, failed: 0 });
    // The API's config without a preset ran under the Mem-PAL preset: its retriever and temperatures, as sent.
    const row = t.db.select().from(experiments).where(eq(experiments.id, experiment!.id)).get()!;
    expect(row.config).toMatchObject({ preset: "mem-pal", retriever: "dense", repeats: 1 });
    const sent = (model: string) => [...new Set(fake.chatRequests.filter((r) => r.model === model).map((r) => r.temperature))];
    expect(sent("assistant-model")).toEqual([0.7]);
    expect(sent("judge-model")).toEqual([0]);

    // Star one item: the case study shows the user's query and both methods' answers on it.
    const job = t.db.select().from(jobs).where(eq(jobs.experimentId, experiment!.id)).all()[0];
    expect(starJob(t.db, experiment!.id, job.id, { starred: true })).toEqual({ starred: true, note: null, tags: [] });
    expect(() => starJob(t.db, experiment!.id, 999999, { starred: true })).toThrow(/has no job/);
    const md = caseStudiesMarkdown(t.db, experiment!.id);
    const item = loadPalItem(t.db, datasetId, job.itemKey);
    // Titled by the user's query, the task and item key beneath; methods by their display names (issue 34.3).
    expect(md).toContain(`requirement · ${job.itemKey}`);
    expect(md).toContain(item.userQuery);
    expect(md).toContain(`### ${methodDisplayName({ name: "vanilla" })}\n`);
    expect(md).toContain(`### ${methodDisplayName({ name: "vanilla-log" })}\n`);
    expect(md).toContain("> Requirement: The user wants a plan for the weekend.");

    // No prices configured: no cost. The tokens the fake server reports are in the ledger per method.
    expect(experimentResults(t.db, experiment!.id).ledgerByMethod.vanilla.cost).toBeUndefined();
    const csv = exportExperiment(t.db, experiment!.id, "csv").body.split("\n");
    expect(csv[0]).toBe("task,method,metric,runs,mean,sd,p_vs_reference,reference");
    expect(csv.filter((l) => l.startsWith("requirement,vanilla,gscore,1,75,"))).toHaveLength(1);
    expect(() => exportExperiment(t.db, experiment!.id, "xls")).toThrow(/format/);
  });

  it("cost per method from the paid tokens of its jobs at the configured prices", async () => {
    const prices = { assistant: { prompt: 1, completion: 2 }, judge: { prompt: 10, completion: 20 } };
    const { experiment } = estimateOrLaunch(t.db, { datasetId, config: { ...config, repeats: 2, prices } }, null);
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50 });
    const deadline = Date.now() + 20_000;
    while (experimentProgress(t.db, experiment!.id).status !== "done" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const res = experimentResults(t.db, experiment!.id);
    const ids = new Map(
      t.db
        .select()
        .from(jobs)
        .where(eq(jobs.experimentId, experiment!.id))
        .all()
        .map((j) => [j.id, j.method]),
    );
    let expected = 0;
    for (const c of t.db.select().from(llmCalls).all()) {
      if (c.jobId === null || ids.get(c.jobId) !== "vanilla" || c.cacheHit) continue;
      const p = prices[c.role as "assistant" | "judge"];
      expected += (c.promptTokens * p.prompt + c.completionTokens * p.completion) / 1e6;
    }
    expect(expected).toBeGreaterThan(0); // the second run's calls are paid (the first run's are cached from above)
    expect(res.ledgerByMethod.vanilla.cost).toBeCloseTo(expected, 12);
  });

  it("the server's worker leaves an experiment to the process that holds live leases on it", async () => {
    const { experiment } = estimateOrLaunch(t.db, { datasetId, config: { ...config, repeats: 3 } }, null);
    expect(prepareJobsSync(t.db, experiment!.id)).toBe("queued"); // what the server's preparer does
    claimJob(t.db, experiment!.id, "otherhost:1:cli", 60_000);
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50 });
    await new Promise((r) => setTimeout(r, 500));
    const p = experimentProgress(t.db, experiment!.id);
    expect(p).toMatchObject({ running: 1, done: 0, queued: experiment!.jobs - 1 });
    stopServerWorker();
    cancelExperiment(t.db, experiment!.id);
  });

  it("pause, cancel and resume through the control body; a bad action names the field", async () => {
    const { experiment } = estimateOrLaunch(t.db, { datasetId, config: { ...config, methods: [{ name: "vanilla" }], repeats: 2 } }, null);
    stopServerWorker();
    prepareJobsSync(t.db, experiment!.id);
    await expect(controlExperiment(t.db, experiment!.id, { action: "explode" })).rejects.toThrow(/body\.action/);
    await controlExperiment(t.db, experiment!.id, { action: "pause" });
    expect(experimentProgress(t.db, experiment!.id).status).toBe("paused");
    await controlExperiment(t.db, experiment!.id, { action: "cancel" });
    expect(experimentProgress(t.db, experiment!.id)).toMatchObject({ status: "cancelled", cancelled: experiment!.jobs });
    await controlExperiment(t.db, experiment!.id, { action: "resume" });
    expect(experimentProgress(t.db, experiment!.id)).toMatchObject({ status: "queued", queued: experiment!.jobs });
  });
});
