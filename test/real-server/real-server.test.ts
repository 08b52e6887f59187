/**
 * The real-server suite (issue 27 item 6; `npm run test:real-server`, a stage of `npm test`): the `pal` CLI
 * against llama.cpp's own OpenAI-compatible llama-server, built once per machine from the source bundled in
 * the node-llama-cpp npm package (scripts/build-llama-server.sh), serving a tiny synthetic Qwen2 model with
 * the real tokenizer (./synthetic-model.ts). The replies are word salad; the protocol, the grammars of the
 * JSON modes, the token accounting and the server's /metrics are real.
 *
 * It runs: an H2Memory build of one demo user in json_schema mode (its long replies streamed past a short
 * request timeout) and in json_object mode, the HiCUPID preset on the demo set, a campaign judge, a cancel
 * from the CLI (Ctrl+C) and one as the UI does it, and compares the ledger's tokens with the server's counters. When llama-server cannot be built the suite fails saying why.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/db/client";
import { PALSET_EN, FIXTURE_JSONL } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { saveEndpoint, listEndpoints } from "@/lib/llm/endpoints";
import { saveModelSetting } from "@/lib/llm/config";
import { JSON_MODE_REFUSED } from "@/lib/llm/ledger";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { cancelExperiment, getExperimentRow } from "@/lib/experiments/control";
import { buildLlamaServer, startLlamaServer, type LlamaBuild, type LlamaServer } from "./llama-server";
import { writeSyntheticQwen2 } from "./synthetic-model";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The model name the suite asks for, and the one llama-server reports (it serves its one model whatever is asked). */
const MODEL = "synthetic-qwen2";
const SERVED = "served-synthetic";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let tmp: string;
let build: LlamaBuild;
let chat: LlamaServer;
let embed: LlamaServer;
let before: Record<string, number>;
const suiteStart = Date.now();
/** Tokens of requests that are no study's calls (`pal models check`), left out of the ledger comparison. */
const unledgered = { prompt: 0, completion: 0 };
/** Every database the suite used: the ledger of all of them is compared with the server's counters. */
const dbs: Array<{ file: string; db: Db }> = [];

type JsonMode = "off" | "json_object" | "json_schema";

/** A fresh database whose model roles all point at the llama-server pair (chat in `mode`, embeddings). */
function freshDb(name: string, mode: JsonMode, timeoutMs?: number): { file: string; db: Db } {
  const file = path.join(tmp, `${name}.db`);
  const db = openDb(file);
  const chatId = saveEndpoint(db, { name: "llama-server", baseUrl: chat.baseURL, jsonMode: mode, timeoutMs });
  const embedId = saveEndpoint(db, { name: "llama-server-embeddings", baseUrl: embed.baseURL, jsonMode: "off" });
  for (const role of ["assistant", "user-simulator", "judge"]) saveModelSetting(db, { name: role, endpointId: chatId, model: MODEL });
  saveModelSetting(db, { name: "embedding", endpointId: embedId, model: MODEL });
  const entry = { file, db };
  dbs.push(entry);
  return entry;
}

type PalResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number };

/** `pal …` as a child process on `dbFile`; killed (and reported so) after `limitMs`. */
function pal(dbFile: string, args: string[], limitMs = 8 * 60_000, onChild?: (c: ChildProcess) => void): Promise<PalResult> {
  const started = Date.now();
  // The machine's environment less any model or PAL settings: the database alone says where the models are.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PAL_|OPENAI_)/.test(k))) as NodeJS.ProcessEnv;
  Object.assign(env, { PAL_DB: dbFile, PAL_PRIVATE_DIR: path.join(tmp, "private"), OPENAI_API_KEY: "none" });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/pal.mjs"), ...args], { env, cwd: tmp });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => {
      stderr += `\n[suite] killed after ${limitMs / 1000} s`;
      child.kill("SIGKILL");
    }, limitMs);
    onChild?.(child);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** llama-server's own per-request timings from its log: prompt reading and generation, ms per request (min/median/max). */
function serverTimings(log: string): string {
  const text = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
  const grab = (re: RegExp) => [...text.matchAll(re)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const stats = (xs: ReadonlyArray<readonly [number, number]>) => {
    if (!xs.length) return "none";
    const ms = xs.map((x) => x[0]).sort((a, b) => a - b);
    const tok = xs.map((x) => x[1]).sort((a, b) => a - b);
    const mid = (v: number[]) => v[Math.floor(v.length / 2)];
    return `${xs.length} × ${Math.round(ms[0])}/${Math.round(mid(ms))}/${Math.round(ms[ms.length - 1])} ms for ${tok[0]}/${mid(tok)}/${tok[tok.length - 1]} tokens`;
  };
  return `prompt eval ${stats(grab(/prompt eval time =\s*([\d.]+) ms \/\s*(\d+) tokens/g))}; eval ${stats(grab(/(?<!prompt )eval time =\s*([\d.]+) ms \/\s*(\d+) tokens/g))}`;
}

const explain = (r: PalResult) =>
  `exit ${r.code ?? r.signal} after ${r.ms} ms\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-2500)}`;

type CallRow = {
  purpose: string;
  role: string;
  status: string;
  error: string | null;
  raw: string | null;
  prompt: number;
  completion: number;
};
const paidCalls = (db: Db, baseURL: string): CallRow[] =>
  db.$client
    .prepare(
      `SELECT purpose, role, status, error, raw_reply AS raw, prompt_tokens AS prompt, completion_tokens AS completion
       FROM llm_calls WHERE endpoint = ? AND cache_hit = 0`,
    )
    .all(baseURL) as CallRow[];

/** Calls a stopping process recorded without a count (the request reached the server; the reply did not come back in time). */
const abandonedCalls = (
  db: Db,
  baseURL: string,
): Array<{ promptBound: number; budget: number | null; purpose: string; error: string | null }> =>
  db.$client
    .prepare(
      `SELECT coalesce((SELECT max(k.prompt_tokens) FROM llm_calls k WHERE k.endpoint = c.endpoint AND k.purpose = c.purpose
                                AND k.usage_unknown = 0), 0) AS promptBound, c.max_tokens AS budget, c.purpose, c.error
         FROM llm_calls c WHERE c.endpoint = ? AND c.cache_hit = 0 AND c.usage_unknown = 1 AND c.prompt_tokens = 0`,
    )
    .all(baseURL) as Array<{ promptBound: number; budget: number | null; purpose: string; error: string | null }>;

beforeAll(async () => {
  const t0 = Date.now();
  build = await buildLlamaServer();
  console.log(
    `[real-server] llama-server ${build.info.nodeLlamaCpp} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (cache built in ${build.info.buildSeconds} s)`,
  );
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-real-server-"));
  const model = path.join(tmp, "model.gguf");
  writeSyntheticQwen2(build.vocab, model);
  // -n bounds every reply server-side too; 4 slots of 8k context for chat, one large batch for embeddings.
  chat = await startLlamaServer(
    build,
    model,
    ["-c", "32768", "-np", "4", "-t", "1", "-n", "1024", "--alias", SERVED],
    path.join(tmp, "chat.log"),
  );
  embed = await startLlamaServer(
    build,
    model,
    ["--embeddings", "--pooling", "mean", "-c", "8192", "-b", "8192", "-ub", "8192", "-np", "1", "-t", "1"],
    path.join(tmp, "embed.log"),
  );
  before = await chat.metrics();
}, 45 * 60_000);

afterAll(async () => {
  await chat?.stop();
  if (process.env.PAL_REAL_SERVER_KEEP_LOG) fs.copyFileSync(path.join(tmp, "chat.log"), process.env.PAL_REAL_SERVER_KEEP_LOG);
  await embed?.stop();
  for (const d of dbs) d.db.$client.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`[real-server] suite took ${((Date.now() - suiteStart) / 1000).toFixed(0)} s`);
});

describe("llama-server in the loop", () => {
  it("builds H2Memory for one demo user in json_schema mode: no schema refused, every step answered in shape, long log-graph replies streamed past the request timeout", async () => {
    // A request timeout of 15 s: above what llama-server takes to send its headers (with the first token, after
    // reading the prompt: at most 0.7 s for 1,700 tokens here, 4 requests in flight for 4 slots) and above the
    // unstreamed steps' replies (situations, at most 7 s on a loaded machine), below the longest log-graph
    // replies (up to 60 s loaded, ~30 s quiet: a few hundred tokens at 6–12 tokens/s). Only a streamed reply
    // (each chunk within the idle timeout) finishes then; before streaming such a build failed (exit 3, timeout).
    const TIMEOUT_MS = 15_000;
    const d = freshDb("h2-json-schema", "json_schema", TIMEOUT_MS);
    await importPalset(d.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    for (let i = 0; i < 120 && (await chat.metrics()).requests_processing > 0; i++) await sleep(500);
    const a = await chat.metrics();
    const r = await pal(d.file, ["memory", "build", "--dataset", "en", "--method", "h2memory", "--users", "0000", "--json"]);
    const b = await chat.metrics();
    const calls = paidCalls(d.db, chat.baseURL);
    const timing = d.db.$client
      .prepare(
        `SELECT purpose, count(*) AS n, max(latency_ms) AS maxMs, min(latency_ms) AS minMs, avg(completion_tokens) AS completion, avg(prompt_tokens) AS prompt
           FROM llm_calls WHERE endpoint = ? AND cache_hit = 0 GROUP BY purpose`,
      )
      .all(chat.baseURL);
    console.log(`[real-server] H2Memory build (json_schema): ${r.ms} ms; per purpose ${JSON.stringify(timing)}`);
    console.log(`[real-server] server log: ${serverTimings(path.join(tmp, "chat.log"))}`);
    expect(
      calls.filter((c) => c.error?.startsWith(JSON_MODE_REFUSED)),
      "a schema was refused",
    ).toEqual([]);
    expect(listEndpoints(d.db).find((e) => e.name === "llama-server")).toMatchObject({ jsonMode: "json_schema", jsonModeFallback: null });
    // json_schema's grammar holds every reply to the schema's shape. What a JSON schema cannot say (H2Memory's
    // background step: each aspect named in updating_aspects has its text in updating_content) a word-salad
    // model can still break three times running, and the build then stops (exit 3) as it would with any
    // model: the content, never the mode. That one failure is allowed (seen once in four runs); no other is.
    expect([0, 3], explain(r)).toContain(r.code);
    const summary = JSON.parse(r.stdout) as { memories: Array<{ status: string; error?: string }>; calls: number };
    const [memory] = summary.memories;
    if (memory.status !== "complete")
      expect(memory.error, explain(r)).toMatch(/no valid reply after \d+ tries \(the reply does not match the expected JSON: /);
    const steps = ["log-graph", "situation", "topic-outline", ...(memory.status === "complete" ? ["background"] : [])];
    for (const step of steps)
      expect(
        calls.some((c) => c.purpose === `h2memory.${step}` && c.status === "ok"),
        `no accepted ${step} reply`,
      ).toBe(true);
    const timed = d.db.$client
      .prepare(`SELECT purpose, status, error, latency_ms AS ms FROM llm_calls WHERE endpoint = ? AND cache_hit = 0`)
      .all(chat.baseURL) as Array<{ purpose: string; status: string; error: string | null; ms: number | null }>;
    expect(timed.filter((x) => /timeout|timed out/i.test(x.error ?? ""))).toEqual([]);
    // llama-server closes the connection after a streamed reply: no request may be sent into such a socket.
    expect(timed.filter((x) => /connection error|socket hang up|ECONNRESET/i.test(x.error ?? ""))).toEqual([]);
    expect(
      timed.some((x) => x.purpose === "h2memory.log-graph" && x.status === "ok" && (x.ms ?? 0) > TIMEOUT_MS),
      `no log-graph reply outlived the ${TIMEOUT_MS / 1000} s request timeout (longest ${Math.max(...timed.filter((x) => x.purpose === "h2memory.log-graph").map((x) => x.ms ?? 0))} ms)`,
    ).toBe(true);
    // Streamed replies are counted to the token: the ledger's completion tokens are the server's.
    const ledger = calls.reduce((n, x) => n + x.completion, 0);
    expect(ledger, `ledger ${ledger}, server ${b.tokens_predicted_total - a.tokens_predicted_total}`).toBe(
      b.tokens_predicted_total - a.tokens_predicted_total,
    );
  });

  it("runs H2Memory's steps in json_object mode: every request accepted, every reply a JSON object", async () => {
    const d = freshDb("h2-json-object", "json_object");
    await importPalset(d.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const r = await pal(d.file, ["memory", "build", "--dataset", "en", "--method", "h2memory", "--users", "0000", "--json"]);
    const calls = paidCalls(d.db, chat.baseURL).filter((c) => c.role !== "embedding");
    expect(calls.length, explain(r)).toBeGreaterThan(0);
    expect(
      calls.filter((c) => c.error?.startsWith(JSON_MODE_REFUSED)),
      "json_object was refused",
    ).toEqual([]);
    expect(listEndpoints(d.db).find((e) => e.name === "llama-server")?.jsonModeFallback).toBeNull();
    // The grammar of json_object: every reply that came back is one JSON object (the random model cannot know
    // the keys, so a step may still fail as an invalid reply: the content, never the mode).
    const replies = calls.filter((c) => c.raw !== null && c.status !== "failed");
    expect(replies.length).toBeGreaterThan(0);
    for (const c of replies) {
      const v = JSON.parse(c.raw!);
      expect(v !== null && typeof v === "object" && !Array.isArray(v), `${c.purpose}: ${c.raw}`).toBe(true);
    }
    expect([0, 3], explain(r)).toContain(r.code);
  });

  it("runs the HiCUPID preset on the demo set to the end, in bounded time", async () => {
    const d = freshDb("hicupid", "json_schema");
    await importHicupid(d.db, { paths: [FIXTURE_JSONL], name: "hicupid" });
    const r = await pal(d.file, ["run", "--preset", "hicupid", "--dataset", "hicupid", "--name", "hicupid-real", "--json"]);
    expect(r.signal, explain(r)).toBeNull();
    expect([0, 3], explain(r)).toContain(r.code);
    const jobs = d.db.$client.prepare("SELECT status, count(*) AS n FROM jobs GROUP BY status").all() as Array<{
      status: string;
      n: number;
    }>;
    const total = jobs.reduce((a, j) => a + j.n, 0);
    expect(total).toBeGreaterThan(0);
    // Finished, or paused by the run's own spend guard (a reply it could not use): never left running.
    const status = getExperimentRow(d.db, 1)?.status;
    console.log(`[real-server] HiCUPID preset: ${status}, jobs ${JSON.stringify(jobs)}`);
    expect(["done", "failed", "paused"], explain(r)).toContain(status);
    expect(
      jobs.filter((j) => j.status === "running"),
      "jobs left running",
    ).toEqual([]);
    if (status === "done") expect(jobs.filter((j) => !["done", "failed"].includes(j.status))).toEqual([]);
    expect(paidCalls(d.db, chat.baseURL).length).toBeGreaterThan(0);
    // What the requests to the real server carried, per role (the preset: assistant 0.6, judge 0), each with an output budget.
    const sent = d.db.$client
      .prepare(
        `SELECT role, temperature, count(*) AS n, sum(max_tokens IS NULL) AS noBudget FROM llm_calls
          WHERE endpoint = ? AND cache_hit = 0 AND role IN ('assistant', 'judge') GROUP BY role, temperature`,
      )
      .all(chat.baseURL) as Array<{ role: string; temperature: number | null; n: number; noBudget: number }>;
    console.log(`[real-server] HiCUPID preset, sent per role: ${JSON.stringify(sent)}`);
    expect(sent.map((x) => [x.role, x.temperature, x.noBudget])).toEqual(expect.arrayContaining([["assistant", 0.6, 0]]));
    expect(sent.filter((x) => (x.role === "assistant" && x.temperature !== 0.6) || (x.role === "judge" && x.temperature !== 0))).toEqual(
      [],
    );
    expect(sent.every((x) => x.noBudget === 0)).toBe(true);
    // And the public code's budgets (issue 40.12): answers 200 tokens, the judge 512, each request as sent (a model
    // seen thinking gets its reasoning allowance on top: lib/llm/reasoning.ts, so at least these).
    const budgets = d.db.$client
      .prepare(
        `SELECT role, min(max_tokens) AS least, max(max_tokens) AS most FROM llm_calls
          WHERE endpoint = ? AND cache_hit = 0 AND role IN ('assistant', 'judge') GROUP BY role`,
      )
      .all(chat.baseURL) as Array<{ role: string; least: number; most: number }>;
    console.log(`[real-server] HiCUPID preset, output budgets sent: ${JSON.stringify(budgets)}`);
    expect(budgets.find((b) => b.role === "assistant")?.least).toBe(200);
    const judge = budgets.find((b) => b.role === "judge");
    if (judge) expect(judge.least).toBe(512);
  });

  it("judges a campaign with the LLM judge (pairwise dialogues, JSON replies)", async () => {
    const d = freshDb("campaign", "json_schema");
    const researcher = await createUser(d.db, { email: "r@x.io", role: "researcher", password: "password-123" });
    const annotator = await createUser(d.db, { email: "a@x.io", role: "annotator", password: "password-123" });
    // Two of the demo's six pairs: each verdict is two long replies on this machine (both orders), and what is
    // checked, the judge's JSON mode and its replies against the real server, is the same for two as for six.
    const text = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8").split("\n").slice(0, 2).join("\n");
    const campaign = createCampaign(
      d.db,
      {
        name: "pairs",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: [annotator.id],
        source: { kind: "upload", fileName: "p.jsonl", text },
      },
      researcher.id,
    ).id;
    const r = await pal(d.file, ["campaign", "judge", "--campaign", String(campaign), "--json"]);
    expect(r.signal, explain(r)).toBeNull();
    const out = JSON.parse(r.stdout) as { total: number; judged: number; failed: number; requests: number };
    expect(out.requests, explain(r)).toBeGreaterThan(0);
    expect(out.judged + out.failed, explain(r)).toBe(out.total);
    expect(paidCalls(d.db, chat.baseURL).filter((c) => c.error?.startsWith(JSON_MODE_REFUSED))).toEqual([]);
  });

  it("pal models check tries each role and names the model the server reports when it is not the one asked for", async () => {
    const d = freshDb("models-check", "json_schema");
    const a = await chat.metrics();
    const r = await pal(d.file, ["models", "check"], 3 * 60_000);
    const b = await chat.metrics();
    // A check is a diagnostic, not a study's call: its tokens are left out of the ledger comparison below.
    unledgered.prompt += b.prompt_tokens_total + b.prompt_tokens_cached_total - (a.prompt_tokens_total + a.prompt_tokens_cached_total);
    unledgered.completion += b.tokens_predicted_total - a.tokens_predicted_total;
    expect(r.signal, explain(r)).toBeNull();
    expect(`${r.stdout}\n${r.stderr}`, explain(r)).toContain(SERVED);
  });

  /** Starts `pal run` of the HiCUPID preset and resolves once the server has answered a few of its requests. */
  async function runningExperiment(name: string) {
    const d = freshDb(name, "json_schema");
    await importHicupid(d.db, { paths: [FIXTURE_JSONL], name: "hicupid" });
    let child!: ChildProcess;
    const done = pal(
      d.file,
      ["run", "--preset", "hicupid", "--dataset", "hicupid", "--name", name, "--concurrency", "4"],
      5 * 60_000,
      (c) => (child = c),
    );
    const deadline = Date.now() + 120_000;
    while (paidCalls(d.db, chat.baseURL).filter((c) => c.role !== "embedding").length < 3) {
      if (Date.now() > deadline) throw new Error(`${name}: no calls within 120 s`);
      await sleep(200);
    }
    const id = (d.db.$client.prepare("SELECT id FROM experiments ORDER BY id DESC LIMIT 1").get() as { id: number }).id;
    return { d, child, done, id };
  }

  /** The server's work counters stay still for `quietMs` (no request of any process reaches it). */
  async function expectServerStill(quietMs: number) {
    // Requests already sent may finish (at most a minute); after that nothing new may arrive.
    for (let i = 0; i < 120 && (await chat.metrics()).requests_processing > 0; i++) await sleep(500);
    const a = await chat.metrics();
    await sleep(quietMs);
    const b = await chat.metrics();
    expect(b.requests_processing).toBe(0);
    expect({ decodes: b.n_decode_total, prompt: b.prompt_tokens_total + b.prompt_tokens_cached_total }).toEqual({
      decodes: a.n_decode_total,
      prompt: a.prompt_tokens_total + a.prompt_tokens_cached_total,
    });
  }

  it("Ctrl+C on pal run stops spending: the process exits, the experiment is cancelled or paused, the server stays still", async () => {
    const { d, child, done, id } = await runningExperiment("cancel-cli");
    child.kill("SIGINT");
    const r = await Promise.race([done, sleep(30_000).then(() => null)]);
    if (!r) child.kill("SIGKILL"); // never leave it spending into the next checks
    expect(r, "pal run did not exit within 30 s of Ctrl+C").not.toBeNull();
    expect(r!.signal, explain(r!)).toBeNull(); // it handled Ctrl+C itself and exited
    expect(["cancelled", "paused"], explain(r!)).toContain(getExperimentRow(d.db, id)?.status);
    await expectServerStill(8000);
  });

  it("a cancel as the UI makes it (another process) stops pal run's requests", async () => {
    const { d, child, done, id } = await runningExperiment("cancel-ui");
    cancelExperiment(d.db, id);
    const r = await Promise.race([done, sleep(60_000).then(() => null)]);
    if (!r) child.kill("SIGKILL");
    expect(r, "pal run went on for 60 s after the experiment was cancelled").not.toBeNull();
    expect(getExperimentRow(d.db, id)?.status).toBe("cancelled");
    await expectServerStill(8000);
    const requeued = d.db.$client
      .prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status IN ('queued', 'running')")
      .get(id) as {
      n: number;
    };
    expect(requeued.n).toBe(0);
  });

  it("the ledger holds every token the server processed (its /metrics)", async () => {
    const after = await chat.metrics();
    const server = {
      prompt:
        after.prompt_tokens_total +
        after.prompt_tokens_cached_total -
        (before.prompt_tokens_total + before.prompt_tokens_cached_total) -
        unledgered.prompt,
      completion: after.tokens_predicted_total - before.tokens_predicted_total - unledgered.completion,
    };
    const rows = dbs.flatMap((d) => paidCalls(d.db, chat.baseURL));
    const ledger = {
      prompt: rows.reduce((a, c) => a + c.prompt, 0),
      completion: rows.reduce((a, c) => a + c.completion, 0),
    };
    // Replies a stopping `pal run` could not wait for (Ctrl+C waits 10 s) are in the ledger as calls with their
    // usage unknown: the server read their prompts, the ledger knows they were sent and holds no count. Their
    // share is bounded by the largest known prompt of the same purpose and by the output budget each one sent.
    const open = dbs.flatMap((d) => abandonedCalls(d.db, chat.baseURL));
    const openBound = {
      prompt: open.reduce((a, c) => a + c.promptBound, 0),
      completion: open.reduce((a, c) => a + (c.budget ?? 1024), 0),
    };
    const kinds = new Map<string, number>();
    for (const c of open) {
      const k = `${c.purpose}: ${(c.error ?? "").slice(0, 90)}`;
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    console.log(`[real-server] calls with usage unknown: ${JSON.stringify([...kinds])}`);
    console.log(
      `[real-server] ${rows.length} ledger rows for the chat server (${open.length} abandoned by a stopping run, usage unknown, at most ${openBound.prompt}/${openBound.completion} tokens); tokens prompt/completion: ledger ${ledger.prompt}/${ledger.completion}, server ${server.prompt}/${server.completion}`,
    );
    expect(server.prompt).toBeGreaterThan(0);
    // Within 1% either way: llama-server's counters and its per-reply usage differ by a few tokens on some
    // requests (measured: +99 of 147,458 prompt and +40 of 9,350 completion tokens over 219 requests), while
    // the bug this guards against, replies dropped when a run stops, left the ledger 4.6% short. The server may
    // also count the abandoned calls' tokens, at most their bound, never more.
    const within = (ledgerN: number, serverN: number, unknownN: number) =>
      ledgerN - serverN <= Math.ceil(serverN * 0.01) && serverN - ledgerN <= Math.ceil(serverN * 0.01) + unknownN;
    expect(
      within(ledger.prompt, server.prompt, openBound.prompt),
      `prompt tokens: ledger ${ledger.prompt}, server ${server.prompt}, abandoned calls at most ${openBound.prompt}`,
    ).toBe(true);
    expect(
      within(ledger.completion, server.completion, openBound.completion),
      `completion tokens: ledger ${ledger.completion}, server ${server.completion}, abandoned calls at most ${openBound.completion}`,
    ).toBe(true);
  });
});
