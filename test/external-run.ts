/**
 * Shared setup for tests of experiments with an external method (issue 41): per test, the fake OpenAI
 * server (TEST DOUBLE) answering every protocol prompt, a real HTTP method server (TEST DOUBLE of a lab's
 * method, test/method-server.ts) registered as "mine", the PAL-Set EN fixture in a temp database, and the
 * production worker dependencies over the real model client.
 */
import { afterEach, beforeEach, vi } from "vitest";
import type { Db } from "@/db/client";
import { tempDb } from "./db";
import { PALSET_EN } from "./fixtures";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";
import { protocolResponder } from "./protocol-responder";
import { startMethodServer, type MethodMode } from "./method-server";
import { ModelClient } from "@/lib/llm/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { addExternalMethod } from "@/lib/assistants/external/store";
import type { WorkerDeps } from "@/lib/experiments/worker";

export type ExternalRunEnv = {
  readonly fake: FakeOpenAI;
  readonly svc: Awaited<ReturnType<typeof startMethodServer>>;
  /** A new database with the data set and "mine" registered (label `label`), and an experiment over it. */
  experiment(
    config?: Record<string, unknown>,
    o?: { label?: string },
  ): Promise<{ db: Db; file: string; id: number; datasetId: number; deps: WorkerDeps }>;
};

export function externalRunEnv(mode: MethodMode = "ok"): ExternalRunEnv {
  let fake: FakeOpenAI | undefined;
  let svc: ExternalRunEnv["svc"] | undefined;
  const dbs: Array<ReturnType<typeof tempDb>> = [];
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    svc = await startMethodServer({ mode });
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test-key");
    vi.stubEnv("PAL_MODEL_ASSISTANT", "assistant-model");
    vi.stubEnv("PAL_MODEL_JUDGE", "judge-model");
    vi.stubEnv("PAL_MODEL_USER_SIMULATOR", "simulator-model");
    vi.stubEnv("PAL_LLM_RETRIES", "1");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await svc?.close();
    await fake?.close();
    for (const t of dbs.splice(0)) t.cleanup();
  });
  return {
    get fake() {
      return fake!;
    },
    get svc() {
      return svc!;
    },
    async experiment(config = {}, o = {}) {
      const t = tempDb();
      dbs.push(t);
      const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      addExternalMethod(
        t.db,
        { name: "mine", url: svc!.url, ...(o.label ? { label: o.label } : {}) },
        ASSISTANTS.map((a) => a.id),
      );
      const { id } = createExperiment(t.db, {
        name: "external",
        datasetId,
        config: { users: ["0000"], methods: [{ name: "mine", ...(o.label ? { label: o.label } : {}) }], tasks: ["requirement"], ...config },
      });
      const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 10_000 }) });
      return { db: t.db, file: t.file, id, datasetId, deps };
    },
  };
}
