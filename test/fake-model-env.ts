/**
 * Shared setup for tests that build memories or run tasks through the real model client against the
 * fake OpenAI-compatible server (TEST DOUBLE): a fresh fake per test, the client's environment
 * pointed at it, and temp databases (with the marked PAL-Set) removed afterwards.
 */
import { afterEach, beforeEach, vi } from "vitest";
import type { Db } from "@/db/client";
import { tempDb } from "./db";
import { startFakeOpenAI, type FakeOpenAI, type Responder } from "./fake-openai";
import { importMarkedPalset } from "./marked-data";

export type FakeModelEnv = {
  /** This test's fake server (a new one per test). */
  readonly fake: FakeOpenAI;
  /** A temp database, removed after the test. */
  db(): ReturnType<typeof tempDb>;
  /** A temp database holding the marked PAL-Set (distinctive strings per session, for leak checks). */
  palsetDb(): Promise<Db>;
  /** Runs after the test (e.g. a fixture's cleanup). */
  onCleanup(fn: () => void): void;
};

export function fakeModelPerTest(respond?: Responder, opts: { embedding?: boolean; latencyMs?: number } = {}): FakeModelEnv {
  let fake: FakeOpenAI | undefined;
  const cleanups: Array<() => void> = [];
  beforeEach(async () => {
    fake = await startFakeOpenAI({ respond, latencyMs: opts.latencyMs });
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test-key");
    vi.stubEnv("PAL_MODEL_ASSISTANT", "fake-assistant");
    if (opts.embedding ?? true) vi.stubEnv("PAL_MODEL_EMBEDDING", "fake-embedding");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await fake?.close();
    for (const c of cleanups.splice(0).reverse()) c();
  });
  const env: FakeModelEnv = {
    get fake() {
      if (!fake) throw new Error("the fake model server exists only inside a test");
      return fake;
    },
    db() {
      const t = tempDb();
      cleanups.push(t.cleanup);
      return t;
    },
    async palsetDb() {
      const t = env.db();
      const marked = await importMarkedPalset(t.db);
      cleanups.push(marked.cleanup);
      return t.db;
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
  };
  return env;
}
