/**
 * Throughput at a high concurrency limit (issue 17): against the TEST DOUBLE at 50 ms per reply, 5,000
 * distinct JSON calls through the ModelClient with 64 in flight (its `concurrency` option). The ideal is
 * 64 / 0.05 s = 1,280 calls/s; the bench prints the share of it reached (target >= 90%) and the
 * project's CPU time per call.
 *
 * The double runs on its own thread (test/fake-openai-thread.ts), as a real endpoint answers from
 * another machine, and its thread's CPU is subtracted from the process's: what remains is the client's
 * (with the process's shared helper threads, e.g. V8's garbage collection, so an upper bound).
 * Baseline measured in the same run: the bare `openai` SDK, 64 in flight, against the same double.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import pLimit from "p-limit";
import { z } from "zod";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { startFakeOpenAIThread, type ThreadedFakeOpenAI } from "@/test/fake-openai-thread";

const N = Number(process.env.BENCH_CALLS ?? 5000);
const IN_FLIGHT = 64;
const LATENCY_MS = 50;

/** Wall time and the CPU of this process minus the double's thread, over `fn`. */
async function measure(fake: ThreadedFakeOpenAI, fn: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const double0 = (await fake.cpuMs()) ?? 0;
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const double = ((await fake.cpuMs()) ?? 0) - double0;
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 - double };
}

export default async function bench() {
  const fake = await startFakeOpenAIThread({ latencyMs: LATENCY_MS, responder: "ok" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-throughput-"));
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_ASSISTANT = "fake";
  const db = openDb(path.join(dir, "bench.db"));
  const Schema = z.object({ ok: z.boolean() });
  const ideal = IN_FLIGHT / (LATENCY_MS / 1000);
  const rate = (ms: number) => (N / ms) * 1000;
  try {
    // The floor: the SDK alone, no cache, ledger or validation.
    const sdk = new OpenAI({ baseURL: fake.baseURL, apiKey: "bench", maxRetries: 0 });
    const limit = pLimit(IN_FLIGHT);
    const bare = await measure(fake, () =>
      Promise.all(
        Array.from({ length: N }, (_, i) =>
          limit(() => sdk.chat.completions.create({ model: "fake", messages: [{ role: "user", content: `bare ${i}` }] })),
        ),
      ),
    );

    const client = ModelClient.create(db, { concurrency: { assistant: IN_FLIGHT } });
    const run = await measure(fake, () =>
      Promise.all(
        Array.from({ length: N }, (_, i) =>
          client.chat({ messages: [{ role: "user", content: `call ${i}` }], schema: Schema, purpose: "bench" }),
        ),
      ),
    );
    const rows = (db.$client.prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'").get() as { n: number }).n;
    if (rows !== N) throw new Error(`expected ${N} ledger rows, found ${rows}`);

    const r = rate(run.ms);
    console.log(`ModelClient: ${N} calls, ${IN_FLIGHT} in flight, ${LATENCY_MS} ms replies: ${Math.round(r)} calls/s`);
    console.log(`share of the ideal ${ideal} calls/s: ${((r / ideal) * 100).toFixed(1)}% (target >= 90%)`);
    console.log(`project CPU per call (the double's thread excluded): ${(run.cpuMs / N).toFixed(3)} ms`);
    console.log(
      `bare SDK, same double: ${Math.round(rate(bare.ms))} calls/s (${((rate(bare.ms) / ideal) * 100).toFixed(1)}% of ideal), ` +
        `${(bare.cpuMs / N).toFixed(3)} ms CPU per call`,
    );
    console.log(
      `ModelClient / bare SDK: ${(run.ms / bare.ms).toFixed(2)}x the time, ${(run.cpuMs / bare.cpuMs).toFixed(2)}x the CPU per call`,
    );
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
