import path from "node:path";
import { spawn } from "node:child_process";

/**
 * `pal ARGS` in another lab's database, its models on `baseURL` (a TEST DOUBLE of the spec), resolving with
 * stdout. Not spawnSync: the test double answers from the spec's own process. A lab database of its own
 * has no model settings, so the environment given here is what its runs use.
 */
export function labPal(db: string, baseURL: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", ["bin/pal.mjs", ...args], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: {
        ...process.env,
        PAL_DB: db,
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: "sk-e2e",
        PAL_MODEL_ASSISTANT: "lab-assistant",
        PAL_MODEL_JUDGE: "lab-judge",
        PAL_MODEL_USER_SIMULATOR: "lab-sim",
      },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`pal ${args.join(" ")}: ${err}`))));
  });
}
