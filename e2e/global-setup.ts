import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { E2EState } from "./state";
import { freePort, waitForHttp } from "../test/local-server";
import { startFakeOpenAI } from "../test/fake-openai";
import { palResponder } from "../test/h2memory-responder";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Runs the README's command 1 (scripts/start.sh) against a temp database and reads what it prints. */
export default async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-"));
  const port = await freePort();
  // TEST DOUBLE: the app's assistant and embedding roles talk to a fake OpenAI-compatible server that
  // answers every prompt kind validly (H2Memory steps by their tag, task prompts by their format).
  const fakeModel = await startFakeOpenAI({ respond: palResponder, latencyMs: 20 });
  const env = {
    ...process.env,
    PORT: String(port),
    PAL_DB: path.join(dir, "e2e.db"),
    NEXTAUTH_URL: `http://localhost:${port}`,
    OPENAI_BASE_URL: fakeModel.baseURL,
    OPENAI_API_KEY: "e2e-fake-key",
    PAL_MODEL_ASSISTANT: "e2e-fake-assistant",
    PAL_MODEL_EMBEDDING: "e2e-fake-embedding",
  };
  let out = "";
  const child = spawn("bash", ["scripts/start.sh"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const baseURL = `http://localhost:${port}`;
  await waitForHttp(`${baseURL}/login`, child, () => out);

  // What a new user reads: the URL and the demo accounts printed once.
  const accounts = [...out.matchAll(/^\s+(admin|researcher|annotator)\s+(\S+@\S+)\s+password: (\S+)$/gm)].map((m) => ({
    role: m[1],
    email: m[2],
    password: m[3],
  }));
  if (!out.includes(`http://localhost:${port}`)) throw new Error(`start.sh did not print the URL:\n${out}`);
  if (!accounts.some((a) => a.role === "admin")) throw new Error(`start.sh printed no admin credentials:\n${out}`);

  // The demo seeds a researcher and three annotators beside the admin (issue 34.10); the specs sign in as them.
  for (const role of ["researcher", "annotator"])
    if (!accounts.some((a) => a.role === role)) throw new Error(`start.sh printed no ${role} credentials:\n${out}`);

  const state: E2EState = { baseURL, dbPath: env.PAL_DB, accounts, startOutput: out, dir };
  const stateFile = path.join(dir, "state.json");
  fs.writeFileSync(stateFile, JSON.stringify(state));
  process.env.E2E_STATE = stateFile;

  return async () => {
    // The server's own errors (a 500's cause) reach the suite's log: a browser sees only "HTTP 500".
    const errors = out.split("\n").filter((l) => /error|SQLITE_|unhandled|⨯/i.test(l));
    if (errors.length) console.log(`app server: ${errors.length} error lines, the last ones:\n${errors.slice(-30).join("\n")}`);
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
    await fakeModel.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
