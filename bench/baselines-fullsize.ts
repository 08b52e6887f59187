/**
 * The whole real-size flow for every memory method (the baselines, H2Memory and its ablations): one full-size synthetic PAL-Set user
 * (bench/gen-palset.ts, Chinese, ~29 sessions, ~1,000 logs, ~400 turns) is imported with
 * `pal import palset`, then `pal memory build --json` runs for every baseline against the fake
 * OpenAI-compatible server (TEST DOUBLE, test/fake-openai.ts; scripted replies, no latency).
 * Prints per method the wall time, the calls that reached the server and the count the algorithm
 * implies, and checks that a second build makes zero calls.
 *
 * Usage: `npx tsx bench/baselines-fullsize.ts [method,method...]`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePalset } from "./gen-palset";
import { startFakeOpenAI } from "../test/fake-openai";
import { baselinePurpose } from "../test/baseline-responder";
import { palResponder } from "../test/h2memory-responder";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const ALL = [
  "vanilla",
  "vanilla-log",
  "turn-rag",
  "session-rag",
  "recursum",
  "conditionmem",
  "memorybank",
  "ld-agent",
  "h2memory",
  "h2memory-no-graph",
  "h2memory-no-background",
  "h2memory-no-topic",
  "h2memory-no-principle",
];
const METHODS = process.argv[2] ? process.argv[2].split(",") : ALL;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-fullsize-"));
  const file = path.join(dir, "input.json");
  const db = path.join(dir, "pal.db");
  generatePalset(file, 1);
  // Scripted replies for H2Memory's prompts and the baselines' (test/h2memory-responder.ts).
  const fake = await startFakeOpenAI({ respond: palResponder });
  const env = {
    ...process.env,
    PAL_DB: db,
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "test-key",
    PAL_MODEL_ASSISTANT: "fake",
    PAL_MODEL_EMBEDDING: "fake-embedding",
  };
  // Asynchronous: the fake server answers from this process's event loop while the CLI runs.
  const pal = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, "bin/pal.mjs"), ...args], { env });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("close", (code) =>
        code === 0 ? resolve(out) : reject(new Error(`pal ${args.join(" ")} failed (${code}): ${err.trim().split("\n").pop()}`)),
      );
    });
  try {
    await pal(["import", "palset", file, "--name", "fullsize", "--lang", "zh", "--json"]);
    console.log("method        seconds  calls  by purpose                                   rebuild calls");
    for (const method of METHODS) {
      const before = fake.chatRequests.length;
      const t0 = performance.now();
      const out = JSON.parse(await pal(["memory", "build", "--dataset", "fullsize", "--method", method, "--users", "0000", "--json"]));
      const seconds = (performance.now() - t0) / 1000;
      const reqs = fake.chatRequests.slice(before);
      const byPurpose: Record<string, number> = {};
      for (const r of reqs)
        byPurpose[baselinePurpose(r) ?? "h2memory/other"] = (byPurpose[baselinePurpose(r) ?? "h2memory/other"] ?? 0) + 1;
      const again = fake.chatRequests.length;
      await pal(["memory", "build", "--dataset", "fullsize", "--method", method, "--users", "0000", "--json"]);
      const rebuild = fake.chatRequests.length - again;
      console.log(
        `${method.padEnd(13)} ${seconds.toFixed(1).padStart(7)} ${String(reqs.length).padStart(6)}  ${JSON.stringify(byPurpose).padEnd(44)} ${rebuild}`,
        out.failed ? `FAILED ${out.failed}` : "",
      );
    }
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
