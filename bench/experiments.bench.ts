/**
 * The experiment worker's overhead over the model's own latency, and what the cache saves on a re-run.
 *
 * A synthetic PAL-Set (10 users, bench/gen-palset.ts) gives ~83 query topics; 12 repeats make ~1,000
 * requirement items, each two model calls (the assistant's answer, the G-Score judge). Against the fake
 * OpenAI-compatible server (TEST DOUBLE on its own thread, 100 ms per reply) with 8 jobs in flight, the ideal time is
 * calls × 100 ms / 8. The run is measured against it (target ≤ 1.3x); then the same experiment again,
 * answered from the model cache (target < 5% of the first run's time).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { resumeExperiment } from "@/lib/experiments/control";
import { experimentResults } from "@/lib/experiments/results";
import { startFakeOpenAIThread } from "@/test/fake-openai-thread";
import { generatePalset } from "./gen-palset";

const LATENCY_MS = 100;
const CONCURRENCY = 8;
const REPEATS = 12;

export default async function bench() {
  // On its own thread, like a real endpoint on another machine (see test/fake-openai-thread.ts).
  const fake = await startFakeOpenAIThread({ latencyMs: LATENCY_MS, responder: "requirement" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-exp-"));
  Object.assign(process.env, {
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "bench",
    PAL_MODEL_ASSISTANT: "fake-a",
    PAL_MODEL_JUDGE: "fake-j",
  });
  const db = openDb(path.join(dir, "bench.db"));
  try {
    const file = path.join(dir, "palset.json");
    generatePalset(file, 10);
    const { datasetId } = await importPalset(db, { paths: [file], name: "bench", lang: "zh" });
    const config = { methods: [{ name: "vanilla" }], tasks: ["requirement"], repeats: REPEATS };
    const run = async () => {
      const { id, jobs } = createExperiment(db, { name: "bench", datasetId, config });
      const client = ModelClient.create(db, { concurrency: { assistant: CONCURRENCY, judge: CONCURRENCY } });
      const t = performance.now();
      const status = await runExperiment(db, id, bindDeps(db, { client }), { concurrency: CONCURRENCY });
      const ms = performance.now() - t;
      const res = experimentResults(db, id);
      if (status !== "done" || res.results.some((r) => r.failed)) throw new Error(`bench run ended ${status} with failures`);
      return { ms, jobs, requests: client.stats.requests, hits: client.stats.cacheHits };
    };
    const first = await run();
    const ideal = (first.requests * LATENCY_MS) / CONCURRENCY;
    const again = await run();
    if (again.requests !== 0) throw new Error(`the cached re-run made ${again.requests} requests`);
    // Resuming the finished experiment: every item's result is stored, so nothing runs again.
    const t = performance.now();
    resumeExperiment(db, 1);
    await runExperiment(db, 1, bindDeps(db), { concurrency: CONCURRENCY });
    const resumed = performance.now() - t;
    console.log(
      `${first.jobs} items, ${first.requests} model calls at ${LATENCY_MS} ms, ${CONCURRENCY} in flight: ideal ${(ideal / 1000).toFixed(1)} s`,
    );
    console.log(`first run:  ${(first.ms / 1000).toFixed(1)} s = ${(first.ms / ideal).toFixed(2)}x the ideal (target <= 1.3x)`);
    console.log(
      `same experiment again, from the model cache: ${(again.ms / 1000).toFixed(2)} s = ${((100 * again.ms) / first.ms).toFixed(1)}% of the first run (target < 5%), ${again.hits} cache hits`,
    );
    console.log(
      `resume of the finished experiment (stored results): ${(resumed / 1000).toFixed(2)} s = ${((100 * resumed) / first.ms).toFixed(1)}% of the first run`,
    );
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
