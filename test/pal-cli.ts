/**
 * Runs the real CLI (`node bin/pal.mjs`) as a child process against a database file and a model endpoint
 * (the test double), with the three model roles named, for tests of whole `pal` commands. Asynchronous on
 * purpose: the test double usually runs in the same process, so a synchronous spawn would deadlock it.
 */
import { spawn } from "node:child_process";

export type PalRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export type PalOptions = {
  /** Extra environment (e.g. PAL_LLM_RETRIES). */
  env?: Record<string, string>;
  /** Polled every 20 ms; the child is killed with SIGKILL once it returns true. */
  killWhen?: () => boolean;
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
            child.kill("SIGKILL");
          }
        }, 20)
      : undefined;
    child.on("close", (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
