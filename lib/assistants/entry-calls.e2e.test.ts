/**
 * Every memory entry a model call produced links to that call: for each baseline (and H2Memory's
 * entries through the same column), built with the real client over HTTP against the fake OpenAI
 * server, each such entry names cache keys whose accepted ledger rows exist for the same memory.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { importMarkedPalset } from "@/test/marked-data";
import { probeResponder } from "@/test/probe-assistant";
import { baselineResponder } from "@/test/baseline-responder";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { showMemory } from "@/lib/memory/show";
import { defaultRetrievers as createRetriever } from "./context";
import { buildMemory } from "./build";
import { datasetByName } from "./sessions";

/** Per baseline: the entry kinds stored without any model call (copies of the data); every other kind comes from calls. */
const NO_CALL_KINDS: Record<string, string[]> = {
  "turn-rag": ["log", "utterance"],
  "session-rag": ["log", "session"],
  recursum: ["log"],
  conditionmem: ["log"],
  memorybank: ["log"],
  "ld-agent": ["log"],
};

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let cleanup: () => void;

beforeEach(async () => {
  fake = await startFakeOpenAI({ respond: baselineResponder(probeResponder) });
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "fake-assistant");
  vi.stubEnv("PAL_MODEL_EMBEDDING", "fake-embedding");
  t = tempDb();
  cleanup = (await importMarkedPalset(t.db)).cleanup;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
  cleanup();
});

function acceptedKeys(db: Db, versionId: number): Set<string> {
  const rows = db.$client
    .prepare("select cache_key as k from llm_calls where memory_version_id = ? and status = 'ok' and cache_key is not null")
    .all(versionId) as Array<{ k: string }>;
  return new Set(rows.map((r) => r.k));
}

describe.each(Object.keys(NO_CALL_KINDS))("%s", (method) => {
  it("links every entry a model call produced to an existing ledger row of its memory", async () => {
    const db = t.db;
    const results = await buildMemory(db, {
      dataset: datasetByName(db, "Marked PAL-Set"),
      method,
      users: ["0000", "0001"],
      llm: ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 }),
      createRetriever,
    });
    expect(results.map((r) => r.status)).toEqual(["complete", "complete"]);
    let linked = 0;
    for (const r of results) {
      const ledger = acceptedKeys(db, r.versionId);
      const entries = showMemory(db, r.versionId);
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        if (NO_CALL_KINDS[method].includes(e.kind)) {
          expect(e.callKeys, `${method} ${e.kind} ${e.key}`).toEqual([]);
          continue;
        }
        expect(e.callKeys.length, `${method} ${e.kind} ${e.key} has no call`).toBeGreaterThan(0);
        for (const k of e.callKeys) expect(ledger.has(k), `${method} ${e.kind} ${e.key}: ${k} not in the ledger`).toBe(true);
        linked++;
      }
    }
    // The methods that call the model (all but the two RAG baselines) stored entries from calls.
    if (!method.endsWith("-rag")) expect(linked).toBeGreaterThan(0);
  });
});
