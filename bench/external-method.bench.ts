/**
 * Issue 41: the CPU this process spends per model call an external method makes through the run's
 * endpoint (lib/assistants/external/endpoint.ts: HTTP in, the model handle, HTTP out), beside the same
 * call made by a built-in method (ctx.llm.chat) in the same run: one experiment, both sides inside its
 * run scope (as lib/experiments/worker.ts opens it), each through its own job's handle as a method gets
 * it (the run's role parameters, the job as ledger origin, the run's spend guard with its stop check).
 * The method is a separate process (as a lab's service is); the fake model server (TEST DOUBLE) runs on
 * its own thread and its CPU is subtracted. Both sides send N distinct prompts from 4 callers (each waits
 * for its reply) on an empty cache. The method's process is started before the measure (its start-up is
 * not a call's cost). Target: within 1.2x.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { openGrant } from "@/lib/assistants/external/endpoint";
import { withExternalRun } from "@/lib/assistants/external/run-scope";
import { createExperiment } from "@/lib/experiments/create";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { runHandle } from "@/lib/experiments/job-model";
import { experimentStopped } from "@/lib/experiments/lanes";
import { SpendGuard } from "@/lib/llm/spend-guard";
import { experiments, jobs } from "@/db/schema";
import { eq } from "drizzle-orm";
import { importDemoPalsetEn } from "@/test/demo-palset";
import { startFakeOpenAIThread } from "@/test/fake-openai-thread";

const N = 400;
/** The fake model's latency per call. */
const LATENCY_MS = 20;
/** Calls made on each side before measuring, so that neither side's measure pays for compiling its code. */
const WARM = 50;
const CONCURRENCY = 4;

/** A stand-in for the method's process: N chat calls to the run's endpoint, 4 at a time. */
const METHOD = `
const [baseUrl, key, n, c, tag] = process.argv.slice(1);
let i = 0;
async function lane() {
  while (i < Number(n)) {
    const k = i++;
    const r = await fetch(baseUrl + "/chat/completions", { method: "POST", headers: { authorization: "Bearer " + key, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: tag + " request " + k + " " + "x".repeat(200 + k) }] }) });
    if (!r.ok) throw new Error("HTTP " + r.status + " " + (await r.text()));
    await r.json();
  }
}
// Started ahead and told to go on stdin: its start-up (a spawn in this process) is not a call's cost.
process.stdout.write("ready\\n");
process.stdin.once("data", () => Promise.all(Array.from({ length: Number(c) }, lane)).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); }));
`;

/**
 * The floor of any HTTP hop: a bare Node server answering the same requests with a small JSON body, at
 * once or after `delayMs` (the model's latency, which the endpoint's replies wait for: a connection that
 * waits costs the process more wake-ups than one answered in the same turn).
 */
async function bareHopCpu(delayMs = 0): Promise<number> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const j = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: unknown[] };
      const text = JSON.stringify({ choices: [{ message: { content: String(j.messages.length) } }] });
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      };
      if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
  });
  return hopCpu(server);
}

/**
 * Below Node's HTTP layer: a socket that answers each request with canned HTTP/1.1 bytes after `delayMs`,
 * found by its Content-Length alone (no header parsing to speak of: not a server one could offer, only
 * the floor of a loopback hop that waits, to show what Node's HTTP layer adds).
 */
async function socketHopCpu(delayMs: number): Promise<number> {
  const server = net.createServer((sock) => {
    let buf: Buffer = Buffer.alloc(0);
    sock.on("data", (d: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const len = Number(/content-length: *(\d+)/i.exec(buf.subarray(0, end).toString("latin1"))?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        const j = JSON.parse(buf.subarray(end + 4, end + 4 + len).toString("utf8")) as { messages: unknown[] };
        buf = buf.subarray(end + 4 + len);
        const text = JSON.stringify({ choices: [{ message: { content: String(j.messages.length) } }] });
        setTimeout(
          () =>
            sock.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`),
          delayMs,
        );
      }
    });
  });
  return hopCpu(server);
}

/** This process's CPU (ms) while the method's N calls go to `server` (after its warm-up calls); closes it. */
async function hopCpu(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  await (await startMethod(url, "none", WARM, "warm-up")).go();
  const method = await startMethod(url, "none");
  const u0 = process.cpuUsage();
  await method.go();
  const u = process.cpuUsage(u0);
  await new Promise((r) => server.close(r));
  return (u.user + u.system) / 1000;
}

/** Starts the method's process and waits until it is ready; `go()` sends its calls and resolves once all are answered. */
function startMethod(baseUrl: string, key: string, n = N, tag = "external"): Promise<{ go: () => Promise<void> }> {
  return new Promise((ready, reject) => {
    const child = spawn(process.execPath, ["-e", METHOD, baseUrl, key, String(n), String(CONCURRENCY), tag], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const done = new Promise<void>((resolve, fail) =>
      child.on("exit", (code) => (code === 0 ? resolve() : fail(new Error(`the method process exited with ${code}`)))),
    );
    child.on("error", reject);
    child.stdout.once("data", () =>
      ready({
        go: () => {
          child.stdin.write("go\n");
          return done;
        },
      }),
    );
  });
}

export default async function bench() {
  const fake = await startFakeOpenAIThread({ latencyMs: LATENCY_MS, responder: "ok" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-ext-"));
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_ASSISTANT = "fake";
  const db = openDb(path.join(dir, "bench.db"));
  const cpu = async () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000 - ((await fake.cpuMs()) ?? 0);
  };
  try {
    const client = ModelClient.create(db, { concurrency: { assistant: CONCURRENCY } });
    // One run: an experiment with two jobs, one for each side, "running" as the worker marks it.
    const datasetId = await importDemoPalsetEn(db);
    const exp = createExperiment(db, { name: "bench", datasetId, config: { methods: [{ name: "vanilla" }], tasks: ["requirement"] } });
    db.update(experiments).set({ status: "running", startedAt: Date.now() }).where(eq(experiments.id, exp.id)).run();
    const [jobA, jobB] = db.select({ id: jobs.id }).from(jobs).where(eq(jobs.experimentId, exp.id)).limit(2).all();
    if (!jobB) throw new Error("the bench's experiment has fewer than two jobs");
    const config = parseExperimentConfig(db.select().from(experiments).where(eq(experiments.id, exp.id)).get()!.config);
    const guard = new SpendGuard({
      maxCalls: null,
      maxUsd: null,
      onTrip: () => {},
      stopped: () => (experimentStopped(db, exp.id) ? "stopped" : null),
    });
    // What a method's respond() is given as ctx.llm (lib/experiments/deps.ts).
    const jobHandle = (jobId: number) => runHandle(client, config, { origin: { jobId }, guard }).deferringHits();
    const run = {
      id: `experiment ${exp.id}`,
      model: runHandle(client, config, { origin: { experimentId: exp.id } }).withGuard(guard),
      stopped: () => experimentStopped(db, exp.id),
    };
    const { builtin, external, served } = await withExternalRun(run, async () => {
      const llm = jobHandle(jobA.id);
      // Warm-up (module loading, the first statements, compiling the client's code): not measured.
      for (let k = 0; k < WARM; k++)
        await llm.chat({ messages: [{ role: "user", content: `warm-up ${k} ${"x".repeat(200 + k)}` }], purpose: "bench.warm" });
      let c0 = await cpu();
      let t = performance.now();
      // Four callers, each waiting for its reply before the next call, as the method's four lanes do.
      let next = 0;
      const lane = async () => {
        while (next < N) {
          const k = next++;
          await llm.chat({
            messages: [{ role: "user", content: `built-in request ${k} ${"x".repeat(200 + k)}` }],
            purpose: "bench.builtin",
          });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, lane));
      const builtin = { cpu: (await cpu()) - c0, ms: performance.now() - t };

      // The grant an external method's request gets (lib/assistants/external/index.ts), over the other job's handle.
      const g = await openGrant(jobHandle(jobB.id), "bench", "0000");
      // The endpoint's warm-up (its first requests compile the HTTP server's and its own code): not measured.
      await (await startMethod(g.access.baseUrl, g.access.apiKey, WARM, "warm-up")).go();
      const callsBefore = g.grant.calls;
      const method = await startMethod(g.access.baseUrl, g.access.apiKey);
      c0 = await cpu();
      t = performance.now();
      await method.go();
      const external = { cpu: (await cpu()) - c0, ms: performance.now() - t };
      g.close();
      return { builtin, external, served: g.grant.calls - callsBefore };
    });
    if (served !== N) throw new Error(`the endpoint served ${served} of ${N} calls`);

    const hop = await bareHopCpu();
    const waitingHop = await bareHopCpu(LATENCY_MS);
    const socketHop = await socketHopCpu(LATENCY_MS);
    const per = (x: { cpu: number }) => `${((x.cpu / N) * 1000).toFixed(0)} µs CPU/call`;
    console.log(`built-in method (ctx.llm.chat), ${N} calls, ${CONCURRENCY} in flight: ${per(builtin)}, ${Math.round(builtin.ms)} ms wall`);
    console.log(
      `external method via the run's endpoint:             ${per(external)}, ${Math.round(external.ms)} ms wall  (${(external.cpu / builtin.cpu).toFixed(2)}x the built-in's CPU; target <= 1.2x)`,
    );
    console.log(
      `a bare Node HTTP server, same requests:             ${((hop / N) * 1000).toFixed(0)} µs CPU/request (the hop's floor: ${(hop / builtin.cpu).toFixed(2)}x of a built-in call)`,
    );
    console.log(
      `a bare Node HTTP server answering after ${LATENCY_MS} ms:       ${((waitingHop / N) * 1000).toFixed(0)} µs CPU/request (the floor of a hop that waits for the model: ${((builtin.cpu + waitingHop) / builtin.cpu).toFixed(2)}x; the endpoint's own cost over it: ${(((external.cpu - builtin.cpu - waitingHop) / N) * 1000).toFixed(0)} µs/call)`,
    );
    console.log(
      `a socket answering after ${LATENCY_MS} ms, no HTTP layer:    ${((socketHop / N) * 1000).toFixed(0)} µs CPU/request (${((builtin.cpu + socketHop) / builtin.cpu).toFixed(2)}x: Node's HTTP layer adds ${(((waitingHop - socketHop) / N) * 1000).toFixed(0)} µs/request)`,
    );
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
