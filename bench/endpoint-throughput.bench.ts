/**
 * Throughput at a high concurrency limit (issue 17): against the TEST DOUBLE at 50 ms per reply, 5,000
 * distinct JSON calls through the ModelClient on a defined endpoint whose limit is 64 in flight (honoured
 * across processes through the database, lib/llm/rate-limit.ts, as in real use). The ideal is
 * 64 / 0.05 s = 1,280 calls/s; the bench prints the share of it reached (target >= 90%) and the
 * project's CPU time per call.
 *
 * The caller keeps 128 calls (twice the endpoint's limit) outstanding, as an experiment's lanes keep
 * the endpoint busy, so the endpoint's limit is what binds. Handing all 5,000 calls over at once also
 * works, but their preparation (hashing, cache lookups, queueing: about a quarter of a second here)
 * then runs before the first request leaves; that figure is printed too, from one run after the rounds.
 *
 * The double runs on its own thread (test/fake-openai-thread.ts), as a real endpoint answers from
 * another machine, and its thread's CPU is subtracted from the process's: what remains is the client's
 * (with the process's shared helper threads, e.g. V8's garbage collection, so an upper bound).
 * Baselines measured in the same run, 64 in flight against the same double: the bare `openai` SDK (global
 * fetch), and the floor, a plain node:http POST per call with nothing else (what this machine, as loaded
 * as it is right now, lets any client reach). Each is warmed up first, so none pays for JIT compilation,
 * and each runs half before and half after the client's run, in three rounds whose median is reported.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import pLimit from "p-limit";
import { z } from "zod";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { saveModelSetting } from "@/lib/llm/config";
import { saveEndpoint } from "@/lib/llm/endpoints";
import { plainPost } from "./plain-post";
import { startFakeOpenAIThread, type ThreadedFakeOpenAI } from "@/test/fake-openai-thread";

const N = Number(process.env.BENCH_CALLS ?? 5000);
const IN_FLIGHT = 64;
const LATENCY_MS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Calls the caller keeps outstanding: twice the endpoint's limit (see the top). */
const CALLER_OUTSTANDING = 2 * IN_FLIGHT;

type Measured = { ms: number; cpuMs: number };

/** Wall time and the CPU of this process minus the double's thread, over `fn`. */
async function measure(fake: ThreadedFakeOpenAI, fn: () => Promise<unknown>): Promise<Measured> {
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
    // Retries on: on a loaded machine the global fetch can reuse a socket just as the double closes it.
    const sdk = new OpenAI({ baseURL: fake.baseURL, apiKey: "bench", maxRetries: 2 });
    // Idle sockets closed after 4 s, as the client's transport does (lib/llm/http-fetch.ts).
    const agent = new http.Agent({ keepAlive: true, timeout: 4000 });
    const chatURL = new URL(`${fake.baseURL}/chat/completions`);
    const endpointId = saveEndpoint(db, { name: "bench", baseUrl: fake.baseURL, apiKey: "bench", concurrency: IN_FLIGHT });
    saveModelSetting(db, { name: "assistant", model: "fake", endpointId });
    const client = ModelClient.create(db);
    const ways = {
      floor: (i: number) => plainPost(chatURL, agent, i),
      sdk: (i: number) => sdk.chat.completions.create({ model: "fake", messages: [{ role: "user", content: `bare ${i}` }] }),
      client: (i: number, tag = "call") =>
        client.chat({
          messages: [{ role: "user", content: `${tag} ${i}` }],
          schema: Schema,
          purpose: tag.startsWith("call") ? "bench" : "warm-up",
        }),
    };
    /** `n` calls of one way, `outstanding` at a time (Infinity: all at once). */
    const calls = (n: number, one: (i: number) => Promise<unknown>, outstanding: number) => {
      const limit = pLimit(outstanding);
      return Promise.all(Array.from({ length: n }, (_, i) => limit(() => one(i))));
    };
    // The baselines bracket the client's run, half before and half after, so a shared machine's load
    // changing during the run weighs on all three alike; each is warmed up right before it is measured.
    // ROUNDS rounds, and the median round is the figure: this machine's speed drifts by tens of percent
    // over minutes, more than any one change moves it.
    const half = Math.floor(N / 2);
    const both = (a: Measured, b: Measured): Measured => ({ ms: a.ms + b.ms, cpuMs: a.cpuMs + b.cpuMs });
    const rounds: Array<{ run: Measured; bare: Measured; floor: Measured }> = [];
    await calls(500, (i) => ways.client(i, "warm"), CALLER_OUTSTANDING);
    for (let round = 0; round < ROUNDS; round++) {
      await calls(300, ways.floor, IN_FLIGHT);
      const floor1 = await measure(fake, () => calls(half, ways.floor, IN_FLIGHT));
      await calls(300, ways.sdk, IN_FLIGHT);
      const bare1 = await measure(fake, () => calls(half, ways.sdk, IN_FLIGHT));
      await calls(300, (i) => ways.client(i, `warm ${round}`), CALLER_OUTSTANDING);
      const run = await measure(fake, () => calls(N, (i) => ways.client(i, `call ${round}`), CALLER_OUTSTANDING));
      const bare = both(bare1, await measure(fake, () => calls(N - half, ways.sdk, IN_FLIGHT)));
      const floor = both(floor1, await measure(fake, () => calls(N - half, ways.floor, IN_FLIGHT)));
      rounds.push({ run, bare, floor });
    }
    await calls(300, (i) => ways.client(i, "warm all"), CALLER_OUTSTANDING);
    const allAtOnce = await measure(fake, () => calls(N, (i) => ways.client(i, "call all"), Infinity));
    agent.destroy();
    const rows = (
      db.$client.prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND purpose = 'bench'").get() as { n: number }
    ).n;
    if (rows !== N * (ROUNDS + 1)) throw new Error(`expected ${N * (ROUNDS + 1)} ledger rows, found ${rows}`);

    const share = (m: Measured) => (rate(m.ms) / ideal) * 100;
    const line = (name: string, m: Measured) =>
      `${name}: ${Math.round(rate(m.ms))} calls/s (${share(m).toFixed(1)}% of ideal), ${(m.cpuMs / N).toFixed(3)} ms CPU per call`;
    rounds.forEach((x, i) =>
      console.log(`round ${i + 1}: ${line("ModelClient", x.run)}; ${line("bare SDK", x.bare)}; ${line("floor", x.floor)}`),
    );
    const { run, bare, floor } = [...rounds].sort((a, b) => share(a.run) - share(b.run))[Math.floor(ROUNDS / 2)];
    const r = rate(run.ms);
    console.log(`median round of ${ROUNDS}:`);
    console.log(
      `ModelClient: ${N} calls, endpoint limit ${IN_FLIGHT} in flight, ${LATENCY_MS} ms replies, ${CALLER_OUTSTANDING} calls outstanding: ${Math.round(r)} calls/s`,
    );
    console.log(`share of the ideal ${ideal} calls/s: ${share(run).toFixed(1)}% (target >= 90%)`);
    console.log(`project CPU per call (the double's thread excluded): ${(run.cpuMs / N).toFixed(3)} ms`);
    console.log(`same round, ${line("bare SDK (global fetch)", bare)}`);
    console.log(`same round, ${line("floor (plain node:http POST)", floor)}`);
    console.log(
      `ModelClient / floor: ${((r / rate(floor.ms)) * 100).toFixed(1)}% of the floor's rate, ${(run.cpuMs / floor.cpuMs).toFixed(2)}x its CPU per call; ` +
        `ModelClient / bare SDK: ${(rate(bare.ms) / r).toFixed(2)}x the SDK's time, ${(run.cpuMs / bare.cpuMs).toFixed(2)}x its CPU per call`,
    );
    console.log(`one run after the rounds, all ${N} calls handed over at once: ${line("ModelClient", allAtOnce)}`);
    console.log(`load average at the end: ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
