/**
 * For a describe block: the English demo PAL-Set in a temp database, a TEST DOUBLE answering experiment
 * prompts, and one experiment of `config` run to the end through the real model client. The database
 * and the double are closed after the block.
 */
import { afterAll, beforeAll, expect, vi } from "vitest";
import { tempDb } from "./db";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";
import { experimentReplies } from "./experiment-replies";
import { importDemoPalsetEn } from "./demo-palset";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";

export type DemoExperiment = { t: ReturnType<typeof tempDb>; fake: FakeOpenAI; id: number; datasetId: number };

/** `run.t`, `run.id`… are set once beforeAll has run. */
export function demoExperiment(name: string, config: Record<string, unknown>): DemoExperiment {
  const run = {} as DemoExperiment;
  beforeAll(async () => {
    run.t = tempDb();
    run.datasetId = await importDemoPalsetEn(run.t.db);
    run.fake = await startFakeOpenAI();
    run.fake.setResponder(experimentReplies());
    vi.stubEnv("OPENAI_BASE_URL", run.fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const deps = bindDeps(run.t.db, { client: ModelClient.create(run.t.db, { retryBaseMs: 5, timeoutMs: 2000 }) });
    run.id = createExperiment(run.t.db, { name, datasetId: run.datasetId, config }).id;
    expect(await runExperiment(run.t.db, run.id, deps, { concurrency: 3 })).toBe("done");
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await run.fake?.close();
    run.t?.cleanup();
  });
  return run;
}
