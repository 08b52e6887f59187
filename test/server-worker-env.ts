/**
 * Shared setup of the server worker's tests: a temp database (also PAL_DB, for the processes a test
 * starts), the fake OpenAI-compatible server (TEST DOUBLE) answering as an experiment's models, the three
 * roles named in the environment; afterwards the worker and preparer stopped and everything removed.
 */
import { afterEach, beforeEach, vi } from "vitest";
import { stopPreparer, stopServerWorker } from "@/lib/experiments/server-worker";
import { tempDb } from "./db";
import { experimentReplies } from "./experiment-replies";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";

export function serverWorkerPerTest(): { readonly t: ReturnType<typeof tempDb>; readonly fake: FakeOpenAI } {
  let t: ReturnType<typeof tempDb> | undefined;
  let fake: FakeOpenAI | undefined;
  beforeEach(async () => {
    t = tempDb();
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    vi.stubEnv("PAL_DB", t.file);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterEach(async () => {
    stopServerWorker();
    stopPreparer();
    vi.unstubAllEnvs();
    await fake?.close();
    t?.cleanup();
  });
  return {
    get t() {
      if (!t) throw new Error("the test database exists only inside a test");
      return t;
    },
    get fake() {
      if (!fake) throw new Error("the fake model server exists only inside a test");
      return fake;
    },
  };
}
