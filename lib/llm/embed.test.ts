/** embed.ts: vectors cached per (endpoint, model, text); only the missing texts asked, in batches, a ledger row per request. */
import { describe, expect, it, vi } from "vitest";
import { fakeEmbedding } from "@/test/fake-openai";
import { llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { openDb } from "@/db/client";
import { cachedVectors, storeVectors } from "./cache";
import { embedTexts } from "./embed";
import { vectorKeyOf } from "./hash";
import { configOf } from "./core";
import { ModelCallError } from "./errors";

const env = llmClientPerTest();
const close = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]) < 1e-6);

describe("embedTexts", () => {
  it("asks only the texts not cached, once each, in batches, in the texts' order", async () => {
    const core = env.core();
    const first = await embedTexts(core, viewOf(), ["a", "b", "a"], { purpose: "t.embed" });
    expect(env.fake.embeddingRequests.map((r) => r.input)).toEqual([["a", "b"]]);
    expect(close(first[0], fakeEmbedding("a")) && close(first[2], fakeEmbedding("a")) && close(first[1], fakeEmbedding("b"))).toBe(true);
    // "a" and "b" are cached now: only c, d and e are asked, two to a batch.
    const second = await embedTexts(core, viewOf(), ["c", "a", "d", "e"], { purpose: "t.embed", batchSize: 2 });
    expect(env.fake.embeddingRequests.slice(1).map((r) => r.input)).toEqual([["c", "d"], ["e"]]);
    expect(close(second[1], first[0])).toBe(true);
    const rows = env.ledger().map((x) => [x.role, x.purpose, x.cacheHit, x.status]);
    expect(rows).toEqual([
      ["embedding", "t.embed", false, "ok"],
      ["embedding", "t.embed", false, "ok"],
      ["embedding", "t.embed", false, "ok"],
    ]);
    expect(env.ledger().every((x) => x.promptTokens > 0)).toBe(true);
  });

  it("known texts are found by their text: the stored vectors, the same hit row; another process's vector where it wrote first", async () => {
    const core = env.core();
    await embedTexts(core, viewOf(), ["x", "y"], { purpose: "t.embed" });
    const second = await embedTexts(core, viewOf(), ["y", "x"], { purpose: "t.embed.again" });
    const third = await embedTexts(core, viewOf(), ["x", "y"], { purpose: "t.embed.third" });
    // The arrays the cache holds, handed out again (read-only, shared), equal to the table's float32 values.
    expect(third[0]).toBe(second[1]);
    expect(third[1]).toBe(second[0]);
    const cfg = configOf(core, "embedding");
    const keyOf = vectorKeyOf(cfg.baseURL, cfg.model);
    const other = openDb(env.file);
    try {
      expect(cachedVectors(other, [keyOf("x")]).get(keyOf("x"))).toEqual(third[0]);
      expect(env.fake.embeddingRequests).toHaveLength(1);
      expect(env.ledger().map((x) => [x.purpose, x.cacheHit])).toEqual([
        ["t.embed", false],
        ["t.embed.again", true],
        ["t.embed.third", true],
      ]);
      // Another process stored "z" first: this process takes the table's vector, asks nothing, and keeps it.
      storeVectors(other, cfg.model, [{ key: keyOf("z"), vector: [9, 9] }]);
      expect(await embedTexts(core, viewOf(), ["z"], { purpose: "t.z" })).toEqual([[9, 9]]);
      expect(await embedTexts(core, viewOf(), ["z"], { purpose: "t.z.again" })).toEqual([[9, 9]]);
      expect(env.fake.embeddingRequests).toHaveLength(1);
    } finally {
      other.$client.close();
    }
  });

  it("all cached: no request, one hit row", async () => {
    const core = env.core();
    await embedTexts(core, viewOf(), ["x", "y"], { purpose: "t.embed" });
    await embedTexts(core, viewOf(), ["y", "x"], { purpose: "t.embed.again" });
    expect(env.fake.embeddingRequests).toHaveLength(1);
    expect(env.ledger().map((x) => [x.purpose, x.cacheHit])).toEqual([
      ["t.embed", false],
      ["t.embed.again", true],
    ]);
  });

  it("an endpoint that cannot be reached is a transport error naming the purpose, its tries in the ledger", async () => {
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1"); // nothing listens on port 1
    const e = await embedTexts(env.core({ retries: 1 }), viewOf(), ["z"], { purpose: "t.embed" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelCallError);
    expect((e as ModelCallError).message).toMatch(/^t\.embed: the embedding endpoint failed/);
    expect(env.ledger().map((x) => x.status)).toEqual(["retry", "failed"]);
  });
});
