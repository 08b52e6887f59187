/**
 * `pal methods` and an external method run by `pal run` (issue 41): the Python example
 * (examples/external-method/method.py, started as its README says) beside vanilla under the Mem-PAL
 * preset, against the TEST DOUBLE model server; its model calls in the ledger and the run's cost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { tempDb } from "@/test/db";
import { PALSET_ZH } from "@/test/fixtures";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies, firstMessage } from "@/test/experiment-replies";
import type { ChatRequest } from "@/test/fake-openai";
import { runPal } from "@/test/pal-cli";
import { EXPERIMENT_CALLS } from "@/lib/experiments/experiment-calls";
import { importPalset } from "@/lib/datasets/palset/import";

const env = { PAL_MODEL_EMBEDDING: "embedding-model", PAL_LLM_RETRIES: "1" };

/**
 * The experiments' scripted replies, and for the Chinese prompts a reply by the output format the prompt
 * ends with (its last JSON template's keys).
 */
function zhReplies() {
  const en = experimentReplies();
  return (r: ChatRequest) => {
    const out = en(r);
    if (out !== "unexpected prompt") return out;
    const t = firstMessage(r);
    const tail = t.slice(t.lastIndexOf('{"'));
    if (tail.includes('"scores"') || tail.includes('"assistant-1"'))
      return JSON.stringify({
        analysis: { "assistant-1": "x", "assistant-2": "y", overall: "z" },
        scores: { "assistant-1": 7, "assistant-2": 6 },
      });
    if (tail.includes('"selected_solutions"')) return JSON.stringify({ analysis: "合适", selected_solutions: ["1", "2"] });
    if (tail.includes('"score"')) return JSON.stringify({ analysis: "部分满足", score: 1.5 });
    if (tail.startsWith('{"requirement"')) return JSON.stringify({ requirement: "用户想要一个周末计划。" });
    if (tail.startsWith('{"solution"')) return JSON.stringify({ solution: "去公园散步。" });
    if (tail.startsWith('{"content"')) return JSON.stringify({ content: "好的，我明白了。" });
    return `unexpected prompt: ${t.slice(-200)}`;
  };
}

/** Starts the example on a free port; resolves with its URL once it listens. */
function startExample(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["examples/external-method/method.py", "--port", "0"]);
    child.stdout.on("data", (c: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(c));
      if (m) resolve({ url: m[1], child });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the example exited with ${code}`)));
  });
}

describe("pal methods, and the Python example run beside vanilla", () => {
  const t = tempDb();
  let fake: FakeOpenAI;
  let example: { url: string; child: ChildProcess };
  const pal = (...args: string[]) => runPal(t.file, fake.baseURL, args, { env });
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(zhReplies());
    await importPalset(t.db, { paths: [PALSET_ZH], name: "PAL-Set demo (zh)", lang: "zh" });
    example = await startExample();
  });
  afterAll(async () => {
    example?.child.kill();
    await fake?.close();
    t.cleanup();
  });

  it("adds, lists and removes a method; a header's value is never printed", async () => {
    const add = await pal("methods", "add", "scratch", "--url", example.url, "--header", "Authorization: Bearer lab-secret");
    expect(add.code, add.stderr).toBe(0);
    const list = await pal("methods", "list", "--json");
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ name: "scratch", label: "scratch", headerNames: ["Authorization"] }),
    ]);
    expect(list.stdout + (await pal("methods", "list")).stdout).not.toContain("lab-secret");
    const again = await pal("methods", "add", "vanilla", "--url", example.url);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/built-in method/);
    expect((await pal("methods", "remove", "scratch")).code).toBe(0);
    expect(JSON.parse((await pal("methods", "list", "--json")).stdout)).toEqual([]);
  });

  it("runs under the mem-pal preset with results beside vanilla's, its model calls in the ledger and the run's cost", async () => {
    expect((await pal("methods", "add", "pyrag", "--url", example.url, "--label", "Py-RAG")).code).toBe(0);
    const r = await pal(
      "run",
      "--preset",
      "mem-pal",
      "--method",
      "pyrag,vanilla",
      "--users",
      "0000",
      "--dataset",
      "PAL-Set demo (zh)",
      "--repeats",
      "1",
    );
    const id = Number(/experiment (\d+) created/.exec(r.stderr)?.[1]);
    const q = (sql: string, ...p: unknown[]) => t.db.$client.prepare(sql).all(...p) as Array<Record<string, unknown>>;
    const jobs = q("SELECT method, task, status, error FROM jobs WHERE experiment_id = ? ORDER BY id", id);
    expect(r.code, r.stderr + JSON.stringify(jobs.filter((j) => j.status !== "done").slice(0, 4))).toBe(0);
    expect(
      jobs.filter((j) => j.status !== "done"),
      JSON.stringify(jobs.slice(0, 3)),
    ).toEqual([]);
    // Each task's jobs for both methods, and the dialogue pair against the reference (the first method named).
    expect([...new Set(jobs.map((j) => j.method))].sort()).toEqual(["Py-RAG", "Py-RAG~vanilla", "vanilla"]);
    expect(r.stdout).toContain("Py-RAG");
    // --reference names it by its name; the config names it by its label, as its results.
    const dry = await pal(
      "run",
      "--preset",
      "mem-pal",
      "--method",
      "vanilla,pyrag",
      "--reference",
      "pyrag",
      "--users",
      "0000",
      "--dataset",
      "PAL-Set demo (zh)",
      "--dry-run",
      "--json",
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).config).toMatchObject({
      reference: "Py-RAG",
      methods: [{ name: "vanilla" }, { name: "pyrag", label: "Py-RAG" }],
    });
    // Before the run: what the service says of itself.
    expect(r.stderr).toContain(`external method pyrag: turn-rag-example 1 at ${example.url}`);
    // The method's calls are the run's (its jobs' and its memory builds'): in its cost and its protocol audit,
    // with the preset's assistant temperature (the method sent none), as vanilla's answers have it.
    const calls = t.db.$client
      .prepare(`SELECT c.purpose, c.role, c.temperature, c.job_id, c.memory_version_id FROM llm_calls c WHERE ${EXPERIMENT_CALLS}`)
      .all({ id }) as Array<{
      purpose: string;
      role: string;
      temperature: number | null;
      job_id: number | null;
      memory_version_id: number | null;
    }>;
    const mine = calls.filter((c) => c.purpose === "pyrag.llm");
    expect(mine.some((c) => c.job_id !== null && c.role === "assistant")).toBe(true);
    expect(mine.some((c) => c.memory_version_id !== null && c.role === "embedding")).toBe(true);
    const vanillaTemps = new Set(calls.filter((c) => c.purpose.startsWith("vanilla.")).map((c) => c.temperature));
    expect([...new Set(mine.filter((c) => c.role === "assistant").map((c) => c.temperature))]).toEqual([...vanillaTemps]);
  }, 240_000);

  it("holds the method's calls to the run's spend cap: the run pauses on the cap, not on the method's error", async () => {
    // A database of its own: the earlier runs' replies are cached, and cache hits are not paid calls.
    const own = tempDb();
    try {
      await importPalset(own.db, { paths: [PALSET_ZH], name: "zh2", lang: "zh" });
      const palOwn = (...args: string[]) => runPal(own.file, fake.baseURL, args, { env });
      expect((await palOwn("methods", "add", "pyrag", "--url", example.url)).code).toBe(0);
      const r = await palOwn(
        "run",
        "--preset",
        "mem-pal",
        "--method",
        "pyrag",
        "--users",
        "0000",
        "--dataset",
        "zh2",
        "--repeats",
        "1",
        "--max-calls",
        "4",
      );
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(/paused.*(cap|limit|calls)/);
      const id = Number(/experiment (\d+) created/.exec(r.stderr)?.[1]);
      const sent = own.db.$client
        .prepare(`SELECT count(*) AS n FROM llm_calls c WHERE ${EXPERIMENT_CALLS} AND c.cache_hit = 0 AND c.status = 'ok'`)
        .get({ id }) as { n: number };
      expect(sent.n).toBeLessThanOrEqual(4);
      const failed = own.db.$client.prepare("SELECT error FROM jobs WHERE experiment_id = ? AND error IS NOT NULL").all(id) as Array<{
        error: string;
      }>;
      expect(failed.map((f) => f.error).join("\n")).not.toMatch(/answered HTTP 5\d\d/);
    } finally {
      own.cleanup();
    }
  }, 120_000);

  it("pal methods check passes the Python example (exit 0), and pal methods openapi prints the published document", async () => {
    if (!(await pal("methods", "list", "--json")).stdout.includes('"pyrag"')) await pal("methods", "add", "pyrag", "--url", example.url);
    const r = await pal("methods", "check", "pyrag", "--json");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ conforms: true, violations: [], service: { name: "turn-rag-example" } });
    const text = await pal("methods", "check", "pyrag");
    expect(text.stdout).toMatch(/conforms\s*$/);
    const api = await pal("methods", "openapi");
    expect(JSON.parse(api.stdout)).toEqual(JSON.parse(fs.readFileSync("docs/external-methods.openapi.json", "utf8")));
    const missing = await pal("methods", "check", "nosuch");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no external method named "nosuch"/);
  }, 60_000);
});
