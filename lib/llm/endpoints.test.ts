import path from "node:path";
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { openDb, type Db } from "@/db/client";
import { startFakeOpenAI, type FakeOpenAI, type LoggedRequest } from "@/test/fake-openai";
import { listModelConfigs, onBatchApiEndpoint, resolveModelConfig, saveModelSetting } from "./config";
import { deleteEndpoint, endpointById, listEndpoints, saveEndpoint } from "./endpoints";
import { ModelClient } from "./client";
import { acquire, recordTokens, release, rpmWindow, tryAcquire } from "./rate-limit";
import { saveEndpointForm, saveModelForm } from "./model-forms";
import { stubModelEnv } from "@/test/model-env";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let db: Db;
const others: Db[] = [];

beforeEach(async () => {
  fake = await startFakeOpenAI();
  t = tempDb();
  db = t.db;
  stubModelEnv(t.file, {
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "env-key",
    PAL_MODEL_ASSISTANT: "env-assistant",
    PAL_MODEL_JUDGE: "env-judge",
    PAL_MODEL_USER_SIMULATOR: "env-simulator",
    PAL_LLM_CONCURRENCY: "4",
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const o of others.splice(0)) o.$client.close();
  await fake.close();
  t.cleanup();
});

/** The most requests the test double had open at once. */
function maxInFlight(log: LoggedRequest[]): number {
  const edges = log.flatMap((r) => [
    { at: r.receivedAt, d: 1 },
    { at: r.answeredAt ?? Infinity, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let n = 0;
  let max = 0;
  for (const e of edges) max = Math.max(max, (n += e.d));
  return max;
}

const ask = (content: string) => [{ role: "user" as const, content }];

describe("endpoints", () => {
  it("a role pointing at an endpoint takes its URL, key, timeout and JSON mode, keeps its model; its judges inherit it", () => {
    const id = saveEndpoint(db, {
      name: "lab vLLM",
      baseUrl: "http://10.0.0.5:8000/v1/",
      apiKey: "sk-endpoint-777",
      models: ["qwen3-32b"],
      concurrency: 16,
      rpm: 600,
      tpm: 200_000,
      timeoutMs: 30_000,
      jsonMode: "json_schema",
    });
    saveModelSetting(db, { name: "assistant", model: "qwen3-32b", baseUrl: "http://ignored/v1", endpointId: id });
    saveModelSetting(db, { name: "judge", endpointId: id });
    saveModelSetting(db, { name: "judge:gscore", model: "qwen3-judge" });
    expect(resolveModelConfig(db, "assistant")).toMatchObject({
      baseURL: "http://10.0.0.5:8000/v1",
      apiKey: "sk-endpoint-777",
      model: "qwen3-32b",
      jsonMode: "json_schema",
      endpoint: { id, name: "lab vLLM", concurrency: 16, rpm: 600, tpm: 200_000, timeoutMs: 30_000 },
    });
    // The env model stays for the judge role; a named judge inherits the role's endpoint.
    expect(resolveModelConfig(db, "judge")).toMatchObject({
      model: "env-judge",
      baseURL: "http://10.0.0.5:8000/v1",
      apiKey: "sk-endpoint-777",
    });
    expect(resolveModelConfig(db, "judge:gscore")).toMatchObject({ model: "qwen3-judge", endpoint: { name: "lab vLLM" } });
    // Not pointed: exactly as before.
    expect(resolveModelConfig(db, "user-simulator")).toMatchObject({ baseURL: "http://127.0.0.1:9/v1", apiKey: "env-key", endpoint: null });

    // The key is stored encrypted and never listed.
    expect(JSON.stringify(db.$client.prepare("select * from endpoints").all())).not.toContain("sk-endpoint-777");
    const listed = listEndpoints(db);
    expect(JSON.stringify(listed)).not.toContain("sk-endpoint-777");
    expect(listed[0]).toMatchObject({ name: "lab vLLM", key: "set", usedBy: ["assistant", "judge"], models: ["qwen3-32b"] });
    expect(listModelConfigs(db).find((c) => c.name === "judge:gscore")).toMatchObject({
      baseURLFrom: "endpoint",
      key: "set",
      endpoint: { name: "lab vLLM", inherited: true },
    });

    // Bad input names the endpoint and the field, and changes nothing.
    expect(() => saveEndpoint(db, { name: "lab vLLM", baseUrl: "ftp://x", rpm: 5 })).toThrow(/lab vLLM.*not an http/);
    expect(() => saveEndpoint(db, { name: "lab vLLM", baseUrl: "http://x/v1", rpm: 0 })).toThrow(/requests\/min/);
    expect(listEndpoints(db)[0].rpm).toBe(600);

    // Removing the endpoint returns the roles to their own settings and the environment.
    deleteEndpoint(db, "lab vLLM");
    expect(resolveModelConfig(db, "assistant")).toMatchObject({ baseURL: "http://ignored/v1", apiKey: "env-key", endpoint: null });
  });

  it("roles on one endpoint share its in-flight limit", async () => {
    fake = await (async () => {
      await fake.close();
      return startFakeOpenAI({ latencyMs: 80 });
    })();
    const id = saveEndpoint(db, { name: "shared", baseUrl: fake.baseURL, apiKey: "k", concurrency: 2 });
    saveModelSetting(db, { name: "assistant", endpointId: id });
    saveModelSetting(db, { name: "judge", endpointId: id });
    const c = ModelClient.create(db, { retryBaseMs: 5 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.chat({ role: i % 2 ? "judge" : "assistant", messages: ask(`q${i}`), purpose: "test.lane" })),
    );
    expect(fake.chatRequests).toHaveLength(12);
    // Without the endpoint's lane each role would have its own 4 slots: 8 at once.
    expect(maxInFlight(fake.log)).toBe(2);
  });

  it("the in-flight limit holds across two clients on their own connections to one database (two processes)", async () => {
    await fake.close();
    fake = await startFakeOpenAI({ latencyMs: 60 });
    const id = saveEndpoint(db, { name: "shared", baseUrl: fake.baseURL, apiKey: "k", concurrency: 2 });
    saveModelSetting(db, { name: "assistant", endpointId: id });
    const second = openDb(t.file);
    others.push(second);
    // Each client has its own queues, as the server's worker and a CLI run do: only the database is shared.
    const a = ModelClient.create(db, { retryBaseMs: 5 });
    const b = ModelClient.create(second, { retryBaseMs: 5 });
    const n = 8;
    await Promise.all([
      ...Array.from({ length: n }, (_, i) => a.chat({ messages: ask(`a${i}`), purpose: "test.inflight" })),
      ...Array.from({ length: n }, (_, i) => b.chat({ messages: ask(`b${i}`), purpose: "test.inflight" })),
    ]);
    expect(fake.chatRequests).toHaveLength(2 * n);
    // Per process alone it would be 2 + 2 = 4 at once.
    expect(maxInFlight(fake.log)).toBe(2);
    // Every place was given back (a row that only held a place is gone).
    expect(db.$client.prepare("SELECT count(*) AS n FROM endpoint_usage").get()).toEqual({ n: 0 });
  });

  it("the in-flight limit holds between this process and a second process (a CLI run beside the server's worker)", async () => {
    await fake.close();
    fake = await startFakeOpenAI({ latencyMs: 150 });
    const id = saveEndpoint(db, { name: "shared", baseUrl: fake.baseURL, apiKey: "k", concurrency: 2 });
    saveModelSetting(db, { name: "assistant", endpointId: id });
    const n = 8;
    const child = new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const p = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "test/endpoint-calls-worker.ts", String(n), "child"],
        {
          cwd: path.resolve(__dirname, "../.."),
          env: { ...process.env, PAL_DB: t.file },
        },
      );
      let out = "";
      let err = "";
      p.stdout.on("data", (d) => (out += d));
      p.stderr.on("data", (d) => (err += d));
      p.on("close", (code) => resolve({ code, out, err }));
    });
    // This process starts its calls once the child's first request has arrived, so the two overlap.
    const deadline = Date.now() + 60_000;
    while (!fake.chatRequests.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const c = ModelClient.create(db, { retryBaseMs: 5 });
    await Promise.all(Array.from({ length: n }, (_, i) => c.chat({ messages: ask(`parent ${i}`), purpose: "test.inflight" })));
    const r = await child;
    expect(r.err).toBe("");
    expect(r.out).toBe(JSON.stringify({ calls: n }));
    const bodies = fake.chatRequests.map((q) => JSON.stringify(q.messages));
    expect(bodies.filter((b) => b.includes("child")).length).toBe(n);
    expect(bodies.filter((b) => b.includes("parent")).length).toBe(n);
    // Each process alone keeps 2 in flight: together they would reach 4 without the shared places.
    expect(maxInFlight(fake.log)).toBe(2);
  }, 90_000);

  it("a place held by a process that died lapses after the endpoint's timeout", () => {
    const id = saveEndpoint(db, { name: "lease", baseUrl: fake.baseURL, concurrency: 1, timeoutMs: 1_000 });
    const e = { id, rpm: null, tpm: null, concurrency: 1, timeoutMs: 1_000 };
    const held = tryAcquire(db, e, 1_000_000);
    expect(held).toHaveProperty("id");
    // Never released (the process was killed): the next request waits ...
    expect(tryAcquire(db, e, 1_005_000)).toHaveProperty("waitMs");
    // ... until timeout + margin have passed.
    expect(tryAcquire(db, e, 1_011_001)).toHaveProperty("id");
    release(db, e, (held as { id: number }).id, 0);
  });

  it("the used-by list is in a fixed order: roles first, then named judges by name", () => {
    const id = saveEndpoint(db, { name: "ordered", baseUrl: fake.baseURL });
    for (const name of ["judge:zeta", "judge", "judge:alpha", "user-simulator", "assistant"])
      saveModelSetting(db, { name, endpointId: id });
    expect(listEndpoints(db)[0].usedBy).toEqual(["assistant", "user-simulator", "judge", "judge:alpha", "judge:zeta"]);
  });

  it("saving a role with its own URL lets go of its endpoint; choosing an endpoint replaces the row's URL", () => {
    saveEndpoint(db, { name: "lab", baseUrl: fake.baseURL });
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({ name: "judge", model: "", apiKey: "", params: "", ...fields })) f.set(k, v);
      return f;
    };
    const row = () =>
      db.$client.prepare("SELECT base_url AS baseUrl, endpoint_id AS endpointId FROM model_settings WHERE name = 'judge'").get();
    saveModelForm(db, form({ baseUrl: "http://own.example/v1", endpoint: "" }));
    expect(row()).toEqual({ baseUrl: "http://own.example/v1", endpointId: null });
    // Choosing the endpoint (the form still carries the saved URL): the endpoint wins, the URL is dropped.
    saveModelForm(db, form({ baseUrl: "http://own.example/v1", endpoint: "lab" }));
    expect(row()).toMatchObject({ baseUrl: null, endpointId: expect.any(Number) });
    expect(resolveModelConfig(db, "judge").baseURL).toBe(fake.baseURL);
    // Typing a URL with the endpoint left as it was: the URL wins and endpoint_id is cleared.
    saveModelForm(db, form({ baseUrl: "http://own.example/v1", endpoint: "lab" }));
    expect(row()).toEqual({ baseUrl: "http://own.example/v1", endpointId: null });
    expect(resolveModelConfig(db, "judge")).toMatchObject({ baseURL: "http://own.example/v1", endpoint: null });
  });

  it("requests/min holds across two clients on their own connections to one database", async () => {
    const rpm = 120;
    const id = saveEndpoint(db, { name: "metered", baseUrl: fake.baseURL, apiKey: "k", rpm, concurrency: 8 });
    saveModelSetting(db, { name: "assistant", endpointId: id });
    const second = openDb(t.file);
    others.push(second);
    const a = ModelClient.create(db, { retryBaseMs: 5 });
    const b = ModelClient.create(second, { retryBaseMs: 5 });
    const n = 6;
    await Promise.all([
      ...Array.from({ length: n }, (_, i) => a.chat({ messages: ask(`a${i}`), purpose: "test.rpm" })),
      ...Array.from({ length: n }, (_, i) => b.chat({ messages: ask(`b${i}`), purpose: "test.rpm" })),
    ]);
    expect(fake.log).toHaveLength(2 * n);
    // When each request was let through, by either client (the limiter's own record). Measured at the
    // test double instead, a loaded machine delays the first connections and bunches arrivals.
    const at = (db.$client.prepare("SELECT at FROM endpoint_usage ORDER BY at").all() as Array<{ at: number }>).map((r) => r.at);
    expect(at).toHaveLength(2 * n);
    const { k, windowMs } = rpmWindow(rpm);
    // Never more than k in any window, and the whole run no faster than the limit.
    for (const x0 of at) expect(at.filter((x) => x >= x0 && x < x0 + windowMs).length).toBeLessThanOrEqual(k);
    const spanMs = at.at(-1)! - at[0];
    const perMinute = ((at.length - k) / spanMs) * 60_000;
    console.log(
      `rpm limit ${rpm}: ${at.length} requests over ${spanMs} ms from two clients = ${perMinute.toFixed(1)}/min after the first burst of ${k}`,
    );
    expect(perMinute).toBeLessThanOrEqual(rpm * 1.05);
    expect(perMinute).toBeGreaterThan(rpm * 0.6);
  });

  it("a place given back is taken again within the turn without a write; one nobody takes is given back at the turn's end", async () => {
    const id = saveEndpoint(db, { name: "reuse", baseUrl: fake.baseURL, concurrency: 2 });
    const e = { id, name: "reuse", rpm: null, tpm: null, concurrency: 2, timeoutMs: null };
    const rows = () => (db.$client.prepare("SELECT count(*) AS n FROM endpoint_usage").get() as { n: number }).n;
    const changes = () => (db.$client.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
    const a = (await acquire(db, e))!;
    const b = (await acquire(db, e))!;
    expect(rows()).toBe(2);
    const before = changes();
    release(db, e, a, 0);
    const again = await acquire(db, e);
    // The same place, and not a row written: for another process it was never free.
    expect(again).toBe(a);
    expect(changes()).toBe(before);
    expect(rows()).toBe(2);
    // Given back with nobody to take it: gone at the end of the turn.
    release(db, e, a, 0);
    expect(rows()).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect(rows()).toBe(1);
    // The last place this process held is written at once (a run that ends leaves nothing behind).
    release(db, e, b, 0);
    expect(rows()).toBe(0);
  });

  it("tokens/min makes a request wait once the last minute's replies reach the limit", () => {
    const id = saveEndpoint(db, { name: "tokens", baseUrl: fake.baseURL, tpm: 1000 });
    const e = { id, rpm: null, tpm: 1000 };
    const first = tryAcquire(db, e, 1_000_000);
    expect(first).toHaveProperty("id");
    recordTokens(db, (first as { id: number }).id, 1200);
    const wait = tryAcquire(db, e, 1_010_000);
    expect(wait).toEqual({ waitMs: 50_001 });
    expect(tryAcquire(db, e, 1_060_001)).toHaveProperty("id");
  });

  it("the Batch API mark: off by default, saved and cleared by the form's checkbox, kept when the library saves without it", () => {
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({ name: "openai", baseUrl: "https://api.openai.com/v1", ...fields })) f.set(k, v);
      return f;
    };
    saveEndpointForm(db, form({}));
    const id = listEndpoints(db)[0].id;
    expect(endpointById(db, id)?.batchApi).toBe(false);
    saveModelSetting(db, { name: "judge", endpointId: id });
    expect(onBatchApiEndpoint(db, "judge")).toBe(false);

    // Ticked: stored as a boolean, listed, and every judge on the endpoint (named ones inherit it) is on a marked one.
    saveEndpointForm(db, form({ batchApi: "on" }));
    expect(db.$client.prepare("SELECT batch_api FROM endpoints WHERE id = ?").get(id)).toEqual({ batch_api: 1 });
    expect(listEndpoints(db)[0]).toMatchObject({ name: "openai", batchApi: true });
    expect(onBatchApiEndpoint(db, "judge")).toBe(true);
    expect(onBatchApiEndpoint(db, "judge:gscore")).toBe(true);
    expect(listModelConfigs(db).find((c) => c.name === "judge")?.endpoint).toMatchObject({ name: "openai", batchApi: true });
    // A configuration on its own URL or the environment: nothing says it serves batches.
    expect(onBatchApiEndpoint(db, "assistant")).toBe(false);

    // Saving without the field from the library keeps the mark; the form's unticked box clears it.
    saveEndpoint(db, { name: "openai", baseUrl: "https://api.openai.com/v1", rpm: 500 });
    expect(endpointById(db, id)).toMatchObject({ batchApi: true, rpm: 500 });
    saveEndpointForm(db, form({}));
    expect(endpointById(db, id)?.batchApi).toBe(false);
    expect(onBatchApiEndpoint(db, "judge")).toBe(false);

    // A bad value names the field and changes nothing.
    expect(() => saveEndpointForm(db, form({ batchApi: "maybe" }))).toThrow(/batchApi/);
    expect(endpointById(db, id)?.batchApi).toBe(false);
  });
});
