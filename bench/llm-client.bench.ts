/**
 * The model client's cost over the bare `openai` SDK, and what the persistent cache saves.
 *
 * Against the fake OpenAI-compatible server (TEST DOUBLE, 20 ms per reply), the same 400 distinct
 * JSON requests are sent three ways, 4 at a time: the bare SDK (the floor), the ModelClient on an
 * empty cache (validation, cache write, ledger rows), and the ModelClient again (all cache hits).
 * Prints each rate and the ratios measured in this run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import pLimit from "p-limit";
import { z } from "zod";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { startFakeOpenAI } from "@/test/fake-openai";

const N = 400;
const CONCURRENCY = 4;

export default async function bench() {
  const fake = await startFakeOpenAI({
    latencyMs: 20,
    respond: (req) => JSON.stringify({ requirement: `r-${String(req.messages[0].content).length}` }),
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-llm-"));
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_ASSISTANT = "fake";
  const db = openDb(path.join(dir, "bench.db"));
  const prompts = Array.from({ length: N }, (_, i) => `Restate the requirement of request ${i}: ${"x".repeat(200 + i)}`);
  const Schema = z.object({ requirement: z.string() });
  try {
    const sdk = new OpenAI({ baseURL: fake.baseURL, apiKey: "bench", maxRetries: 0 });
    const limit = pLimit(CONCURRENCY);
    let t = performance.now();
    await Promise.all(
      prompts.map((p) => limit(() => sdk.chat.completions.create({ model: "fake", messages: [{ role: "user", content: `raw ${p}` }] }))),
    );
    const raw = performance.now() - t;

    const client = ModelClient.create(db, { concurrency: { assistant: CONCURRENCY } });
    t = performance.now();
    await Promise.all(prompts.map((p) => client.chat({ messages: [{ role: "user", content: p }], schema: Schema, purpose: "bench" })));
    const cold = performance.now() - t;

    const warmClient = ModelClient.create(db, { concurrency: { assistant: CONCURRENCY } });
    t = performance.now();
    await Promise.all(prompts.map((p) => warmClient.chat({ messages: [{ role: "user", content: p }], schema: Schema, purpose: "bench" })));
    const warm = performance.now() - t;
    if (warmClient.stats.requests !== 0) throw new Error(`the warm run made ${warmClient.stats.requests} requests`);

    const rate = (ms: number) => `${Math.round((N / ms) * 1000)} calls/s`;
    console.log(`bare SDK, ${CONCURRENCY} in flight, 20 ms replies: ${rate(raw)}`);
    console.log(
      `ModelClient, empty cache:                 ${rate(cold)}  (${(cold / raw).toFixed(2)}x the bare SDK's time; target <= 1.2x)`,
    );
    console.log(`ModelClient, all cached:                  ${rate(warm)}  (${(raw / warm).toFixed(1)}x faster than the bare SDK)`);
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
