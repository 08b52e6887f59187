/**
 * Issue 41: the CPU this process spends per model call an external method makes through the run's
 * endpoint (lib/assistants/external/endpoint.ts: HTTP in, the model handle, HTTP out), beside the same
 * call made by a built-in method (ctx.llm.chat). The method is a separate process (as a lab's service
 * is); the fake model server (TEST DOUBLE) runs on its own thread and its CPU is subtracted. Both sides
 * send N distinct prompts 4 at a time on an empty cache. Target: within 1.2x.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { openGrant } from "@/lib/assistants/external/endpoint";
import { startFakeOpenAIThread } from "@/test/fake-openai-thread";

const N = 400;
const CONCURRENCY = 4;

/** A stand-in for the method's process: N chat calls to the run's endpoint, 4 at a time. */
const METHOD = `
const [baseUrl, key, n, c] = process.argv.slice(1);
let i = 0;
async function lane() {
  while (i < Number(n)) {
    const k = i++;
    const r = await fetch(baseUrl + "/chat/completions", { method: "POST", headers: { authorization: "Bearer " + key, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "external request " + k + " " + "x".repeat(200 + k) }] }) });
    if (!r.ok) throw new Error("HTTP " + r.status + " " + (await r.text()));
    await r.json();
  }
}
Promise.all(Array.from({ length: Number(c) }, lane)).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
`;

function runMethod(baseUrl: string, key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", METHOD, baseUrl, key, String(N), String(CONCURRENCY)], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the method process exited with ${code}`))));
  });
}

export default async function bench() {
  const fake = await startFakeOpenAIThread({ latencyMs: 20, responder: "ok" });
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
    // Warm-up (module loading, the first statements): not measured.
    await client.chat({ messages: [{ role: "user", content: "warm-up" }], purpose: "bench.warm" });
    let c0 = await cpu();
    let t = performance.now();
    await Promise.all(
      Array.from({ length: N }, (_, k) =>
        client.chat({ messages: [{ role: "user", content: `built-in request ${k} ${"x".repeat(200 + k)}` }], purpose: "bench.builtin" }),
      ),
    );
    const builtin = { cpu: (await cpu()) - c0, ms: performance.now() - t };

    const g = await openGrant(client, "bench");
    c0 = await cpu();
    t = performance.now();
    await runMethod(g.access.baseUrl, g.access.apiKey);
    const external = { cpu: (await cpu()) - c0, ms: performance.now() - t };
    g.close();
    if (g.grant.calls !== N) throw new Error(`the endpoint served ${g.grant.calls} of ${N} calls`);

    const per = (x: { cpu: number }) => `${((x.cpu / N) * 1000).toFixed(0)} µs CPU/call`;
    console.log(`built-in method (ctx.llm.chat), ${N} calls, ${CONCURRENCY} in flight: ${per(builtin)}, ${Math.round(builtin.ms)} ms wall`);
    console.log(
      `external method via the run's endpoint:             ${per(external)}, ${Math.round(external.ms)} ms wall  (${(external.cpu / builtin.cpu).toFixed(2)}x the built-in's CPU; target <= 1.2x)`,
    );
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
