import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { ASSISTANTS } from "@/lib/assistants/registry";

// The fake model server runs in this process, so the CLI runs asynchronously beside it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cli-memory-"));
let fake: FakeOpenAI;
let env: NodeJS.ProcessEnv;

function pal(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("node", ["bin/pal.mjs", ...args], { env, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  env = {
    ...process.env,
    PAL_DB: path.join(dir, "cli.db"),
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "test-key",
    PAL_MODEL_ASSISTANT: "fake-assistant",
    PAL_MODEL_JUDGE: "fake-judge",
    PAL_MODEL_EMBEDDING: "fake-embed",
    PAL_MODEL_USER_SIMULATOR: "",
  };
  const r = await pal("import", "palset", "fixtures/palset/mini/en/input.json", "--name", "mini", "--lang", "en");
  expect(r.stderr).toBe("");
}, 120_000);
afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("pal memory / pal models", () => {
  it("builds a memory, prints the summary, and shows it", async () => {
    const b = await pal("memory", "build", "--dataset", "mini", "--method", "vanilla-log", "--json");
    expect(b.status).toBe(0);
    const out = JSON.parse(b.stdout);
    expect(out).toMatchObject({ method: "vanilla-log", users: ["0000", "0001"], calls: 0, cacheHits: 0, failed: 0, entries: {} });
    expect(out.memories.map((m: { status: string }) => m.status)).toEqual(["complete", "complete"]);
    expect(b.stderr).toMatch(/^0000: session 1\/3 \(0000_sample0\)$/m);
    expect(b.stderr).toMatch(/^0001: complete \(3\/3 sessions\)$/m);

    const s = await pal(
      "memory",
      "show",
      "--dataset",
      "mini",
      "--method",
      "vanilla-log",
      "--user",
      "0000",
      "--session",
      "0000_sample2",
      "--json",
    );
    expect(s.status).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({
      method: "vanilla-log",
      user: "0000",
      session: "0000_sample2",
      memory: { status: "complete", sessionsDone: 3 },
      entries: [],
    });
  });

  it("refuses bad input with one line", async () => {
    const m = await pal("memory", "build", "--dataset", "mini", "--method", "nope");
    expect(m.status).toBe(1);
    expect(m.stderr).toBe(`pal: unknown method "nope" (available: ${ASSISTANTS.map((a) => a.id).join(", ")})\n`);
    const u = await pal("memory", "build", "--dataset", "mini", "--method", "vanilla", "--users", "0000,9999");
    expect(u.stderr).toBe('pal: data set "mini" has no user "9999"\n');
    const d = await pal("memory", "show", "--dataset", "nope", "--method", "vanilla", "--user", "0000", "--json");
    expect(d.status).toBe(1);
    expect(d.stderr).toMatch(/^pal: no data set named "nope"/);
    const n = await pal("memory", "show", "--dataset", "mini", "--method", "vanilla", "--user", "0000", "--json");
    expect(n.stderr).toMatch(/^pal: no vanilla memory of user "0000" in "mini" with these settings/);
  });

  it("checks each configured role with one request", async () => {
    const before = fake.chatRequests.length;
    const r = await pal("models", "check", "--json");
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((x: { name: string; status: string }) => [x.name, x.status])).toEqual([
      ["assistant", "ok"],
      ["user-simulator", "not configured"],
      ["judge", "ok"],
      ["embedding", "ok"],
    ]);
    // A JSON object asked for (the test double echoes the prompt, which holds it), and a sane embedding pair.
    expect(rows[0]).toMatchObject({
      model: "fake-assistant",
      baseURL: fake.baseURL,
      reply: expect.stringMatching(/^JSON mode off: echo: Reply with exactly this JSON object/),
    });
    expect(rows[3].reply).toMatch(/^16 dimensions; cosine 1\.000 for the same text, -?0\.\d{3} for different texts$/);
    expect(fake.chatRequests.length - before).toBe(2);

    fake.setFault((req) => (req.model === "fake-judge" ? { kind: "status", status: 401 } : undefined));
    const bad = await pal("models", "check");
    fake.setFault(undefined);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^judge\s+fake-judge\s+.*FAILED: .*API key was refused \(HTTP 401\)/m);
    expect(bad.stderr).toBe("pal: judge did not answer\n");
  });
});
