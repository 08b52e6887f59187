/**
 * Building every registered method's memory for the demo users (PAL-Set demo, en) against the fake
 * OpenAI-compatible server (TEST DOUBLE, on its own thread) at 100 ms per call with 8 calls in flight per role.
 *
 * Per method: the measured time against the ideal, max(calls × 100 ms / 8, longest chain × 100 ms),
 * the calls per user beside the count the algorithm implies (bench/memory-plans.ts), and the time of
 * the cached re-run (which must make no request). Table-driven over the method registry: a new
 * method appears here by itself. Each method builds into its own fresh database, so the ablations do
 * not reuse H2Memory's cached replies. BENCH_METHODS=a,b limits the methods; BENCH_CONCURRENCY changes the
 * limit (e.g. 1000 to see the chain alone plus per-call overhead).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { buildMemory } from "@/lib/assistants/core/build";
import { datasetByName, listUserKeys, loadSessions } from "@/lib/assistants/core/sessions";
import { showMemory } from "@/lib/memory/show";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAIThread } from "@/test/fake-openai-thread";
import { createRetriever, RETRIEVER_KINDS } from "@/lib/retrieval";
import { PLANS } from "./memory-plans";

const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const NAME = "PAL-Set demo (en)";

export default async function bench() {
  // On its own thread, like a real endpoint on another machine (see test/fake-openai-thread.ts).
  const fake = await startFakeOpenAIThread({ latencyMs: LATENCY, responder: "pal" });
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_ASSISTANT = "fake-assistant";
  process.env.PAL_MODEL_EMBEDDING = "fake-embedding";
  const only = process.env.BENCH_METHODS?.split(",");
  // Loading the tokenizers' models happens once per process, not per build: do it before timing.
  for (const kind of RETRIEVER_KINDS.filter((k) => k !== "dense")) {
    for (const language of ["en", "zh"] as const) {
      const r = createRetriever(kind, { tokenizer: { language } });
      await r.add([{ id: "w", text: "warm up the tokenizer 预热分词器" }]);
      await r.search("warm up 预热", 1);
    }
  }
  // So is the HTTP client's first connection and the SDK's set-up: one call before timing.
  {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-warm-"));
    const db = openDb(path.join(dir, "warm.db"));
    await ModelClient.create(db).chat({ purpose: "bench.warm-up", messages: [{ role: "user", content: "warm up" }] });
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const files = fs
    .readdirSync(PALSET_EN)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(PALSET_EN, f));
  console.log(
    `fake model: ${LATENCY} ms per call, ${CONCURRENCY} in flight per role; ideal = max(calls × ${LATENCY} ms / ${CONCURRENCY}, chain × ${LATENCY} ms)`,
  );
  console.log("method                   users  calls/user (implied)  chain  ideal s  built s  ratio  cached re-run s");
  try {
    for (const a of ASSISTANTS.filter((x) => !only || only.includes(x.id))) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-mem-"));
      const db = openDb(path.join(dir, "bench.db"));
      try {
        await importPalset(db, { paths: files, name: NAME, lang: "en" });
        const dataset = datasetByName(db, NAME);
        const users = listUserKeys(db, dataset);
        const client = () => ModelClient.create(db, { concurrency: { assistant: CONCURRENCY, embedding: CONCURRENCY } });
        const before = await fake.counts();
        let t = performance.now();
        const results = await buildMemory(db, { dataset, method: a.id, users, llm: client(), parallelUsers: users.length });
        const built = performance.now() - t;
        const failed = results.filter((r) => r.status !== "complete");
        if (failed.length) throw new Error(`${a.id}: ${failed.map((r) => `${r.userKey} ${r.error}`).join("; ")}`);
        const after = await fake.counts();
        const calls = after.chat - before.chat + (after.embedding - before.embedding);

        const plan = PLANS[a.id];
        let implied: number | null = null;
        let chain = 0;
        if (plan) {
          implied = 0;
          for (const r of results) {
            const p = plan(loadSessions(db, dataset, r.userKey), showMemory(db, r.versionId));
            implied += p.calls;
            // Users are built side by side: the longest user's chain bounds the whole build.
            chain = Math.max(chain, p.chain);
          }
        }
        const ideal = Math.max((calls * LATENCY) / CONCURRENCY, chain * LATENCY);

        const again = client();
        t = performance.now();
        await buildMemory(db, { dataset, method: a.id, users, llm: again, parallelUsers: users.length });
        const cached = performance.now() - t;
        if (again.stats.requests !== 0) throw new Error(`${a.id}: the cached re-run made ${again.stats.requests} requests`);

        const perUser = (n: number) => (n / users.length).toFixed(1);
        const ratio = ideal > 0 ? (built / ideal).toFixed(2) + "x" : "—";
        console.log(
          `${a.id.padEnd(24)} ${String(users.length).padStart(5)}  ${`${perUser(calls)} (${implied === null ? "no plan" : perUser(implied)})`.padEnd(20)}  ${String(implied === null ? "—" : chain).padStart(5)}  ${(ideal / 1000).toFixed(2).padStart(7)}  ${(built / 1000).toFixed(2).padStart(7)}  ${ratio.padStart(5)}  ${(cached / 1000).toFixed(3).padStart(15)}`,
        );
      } finally {
        db.$client.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    console.log(
      "target: ratio <= 1.3x for every method; calls equal to the implied count (fewer when identical prompts were de-duplicated)",
    );
  } finally {
    await fake.close();
  }
}
