/**
 * llama.cpp's llama-server for the real-server suite: the cached build (scripts/build-llama-server.sh), a
 * server process on 127.0.0.1 with /metrics, its counters, and a stop that waits for the process to end.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type LlamaBuild = { dir: string; server: string; vocab: string; info: { nodeLlamaCpp: string; buildSeconds: number } };

/**
 * The cached llama-server, built now if this machine has none (about 10 minutes on 2 cores). Rejects with the
 * script's reason when it cannot build: the suite then fails saying why, it is never skipped.
 */
export function buildLlamaServer(timeoutMs = 40 * 60_000): Promise<LlamaBuild> {
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      [path.join(ROOT, "scripts/build-llama-server.sh")],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`llama-server could not be built: ${stderr.trim().split("\n").slice(-12).join("\n") || error.message}`));
        const dir = stdout.trim().split("\n").at(-1)!;
        const server = path.join(dir, "llama-server");
        const vocab = path.join(dir, "ggml-vocab-qwen2.gguf");
        if (!fs.existsSync(server) || !fs.existsSync(vocab))
          return reject(new Error(`llama-server build: ${dir} lacks llama-server or the vocabulary`));
        resolve({ dir, server, vocab, info: JSON.parse(fs.readFileSync(path.join(dir, "build.json"), "utf8")) });
      },
    );
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export type LlamaServer = {
  /** The OpenAI-compatible base URL (…/v1). */
  baseURL: string;
  /** The server's counters from /metrics (llamacpp:*), by name without the prefix. */
  metrics(): Promise<Record<string, number>>;
  /** The server's log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts llama-server on 127.0.0.1 with `args` and waits (at most `readyMs`) until /health answers 200. */
export async function startLlamaServer(
  build: LlamaBuild,
  model: string,
  args: string[],
  logFile: string,
  readyMs = 120_000,
): Promise<LlamaServer> {
  const port = await freePort();
  const out = fs.openSync(logFile, "w");
  const child: ChildProcess = spawn(build.server, ["-m", model, "--host", "127.0.0.1", "--port", String(port), "--metrics", ...args], {
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  let exited: string | null = null;
  child.on("exit", (code, signal) => (exited = `exited (${signal ?? code})`));
  const origin = `http://127.0.0.1:${port}`;
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    for (let i = 0; i < 50 && !exited; i++) await sleep(100);
    if (!exited) child.kill("SIGKILL");
    for (let i = 0; i < 20 && !exited; i++) await sleep(100);
  };
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (exited) throw new Error(`llama-server ${exited} before it was ready:\n${log().slice(-3000)}`);
    try {
      const r = await fetch(`${origin}/health`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`llama-server was not ready within ${readyMs / 1000} s:\n${log().slice(-3000)}`);
    }
    await sleep(250);
  }
  return {
    baseURL: `${origin}/v1`,
    async metrics() {
      const text = await (await fetch(`${origin}/metrics`)).text();
      const m: Record<string, number> = {};
      for (const line of text.split("\n")) {
        const hit = /^llamacpp:(\w+) (\S+)$/.exec(line.trim());
        if (hit) m[hit[1]] = Number(hit[2]);
      }
      return m;
    },
    log,
    stop,
  };
}
