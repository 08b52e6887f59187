/**
 * Runs the real CLI (`node bin/pal.mjs`) as a child process against a database file and a model endpoint
 * (the test double), with the three model roles named, for tests of whole `pal` commands. Asynchronous on
 * purpose: the test double usually runs in the same process, so a synchronous spawn would deadlock it.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll } from "vitest";
import { tempDb } from "./db";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";
import { experimentReplies } from "./experiment-replies";
import { PALSET_EN } from "./fixtures";
import { importPalset } from "@/lib/datasets/palset/import";

type TempDb = ReturnType<typeof tempDb>;

export type PalRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export type PalOptions = {
  /** Extra environment (e.g. PAL_LLM_RETRIES). */
  env?: Record<string, string>;
  /** Polled every 20 ms; the child is sent `signal` once it returns true. */
  killWhen?: () => boolean;
  /** What killWhen sends (default SIGKILL; SIGINT is Ctrl+C). */
  signal?: NodeJS.Signals;
  /** Called with the time the signal was sent. */
  onSignal?: (at: number) => void;
};

export function runPal(dbFile: string, baseURL: string, args: string[], o: PalOptions = {}): Promise<PalRun> {
  const env = {
    ...process.env,
    PAL_DB: dbFile,
    OPENAI_BASE_URL: baseURL,
    OPENAI_API_KEY: "test",
    PAL_MODEL_ASSISTANT: "assistant-model",
    PAL_MODEL_USER_SIMULATOR: "simulator-model",
    PAL_MODEL_JUDGE: "judge-model",
    ...o.env,
  };
  return new Promise((resolve) => {
    const child = spawn("node", ["bin/pal.mjs", ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const { killWhen } = o;
    const timer = killWhen
      ? setInterval(() => {
          if (killWhen()) {
            clearInterval(timer);
            o.onSignal?.(Date.now());
            child.kill(o.signal ?? "SIGKILL");
          }
        }, 20)
      : undefined;
    child.on("close", (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * `pal run` of the named methods and tasks on the "en" fixture, one run: these tests are about running
 * (progress, resume, spend, bundles), not the Mem-PAL preset's 3 repeats the run otherwise starts from.
 */
export function oneRun(methods: string, tasks: string, ...more: string[]): string[] {
  return ["run", "--dataset", "en", "--method", methods, "--repeats", "1", "--task", tasks, ...more];
}

/**
 * For a describe block of `pal run` tests: a TEST DOUBLE answering experiment prompts, and `n` temp
 * databases each holding the English demo PAL-Set as "en"; both are closed after the block.
 */
export function palRunSetup(n: number, fakeOptions: Parameters<typeof startFakeOpenAI>[0] = {}) {
  const s = { fake: null as unknown as FakeOpenAI, dbs: [] as TempDb[] };
  beforeAll(async () => {
    s.fake = await startFakeOpenAI(fakeOptions);
    s.fake.setResponder(experimentReplies());
    for (let i = 0; i < n; i++) {
      const t = tempDb();
      await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      s.dbs.push(t);
    }
  });
  afterAll(async () => {
    await s.fake.close();
    for (const t of s.dbs) t.cleanup();
  });
  return s;
}
