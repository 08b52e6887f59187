/**
 * Throughput at a high concurrency limit (issue 17): against the TEST DOUBLE at 50 ms per reply, 5,000
 * distinct JSON calls through the ModelClient with 64 in flight. The ideal is 64 / 0.05 s = 1,280 calls/s;
 * the bench prints the share of it reached and the project's CPU time per call (process CPU over the
 * run, the fake server's own share included, so an upper bound).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { startFakeOpenAI } from "@/test/fake-openai";

const N = 5000;
const IN_FLIGHT = 64;
const LATENCY_MS = 50;

export default async function bench() {
  const fake = await startFakeOpenAI({ latencyMs: LATENCY_MS, respond: () => JSON.stringify({ ok: true }) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-throughput-"));
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_ASSISTANT = "fake";
  const db = openDb(path.join(dir, "bench.db"));
  const Schema = z.object({ ok: z.boolean() });
  try {
    const client = ModelClient.create(db, { concurrency: { assistant: IN_FLIGHT } });
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        client.chat({ messages: [{ role: "user", content: `call ${i}` }], schema: Schema, purpose: "bench" }),
      ),
    );
    const ms = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    const rate = (N / ms) * 1000;
    const ideal = IN_FLIGHT / (LATENCY_MS / 1000);
    console.log(`${N} calls, ${IN_FLIGHT} in flight, ${LATENCY_MS} ms replies: ${Math.round(rate)} calls/s`);
    console.log(`share of the ideal ${ideal} calls/s: ${((rate / ideal) * 100).toFixed(1)}% (target >= 90%)`);
    console.log(`CPU per call (client + test double, user + system): ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms`);
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
