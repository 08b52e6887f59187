/**
 * `pal models`: the defined endpoints (URL, limits, JSON mode and its fallback, who uses them) and
 * each role's model, as text and JSON; a saved key is never printed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { saveModelSetting } from "@/lib/llm/config";
import { recordJsonModeRefusal, saveEndpoint } from "@/lib/llm/endpoints";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cli-models-"));
const file = path.join(dir, "cli.db");
const secret = "sk-cli-endpoint-4242";
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PAL_DB: file,
  PAL_SECRET_KEY: "cli-models-test",
  OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
  OPENAI_API_KEY: "env-key",
  PAL_MODEL_ASSISTANT: "env-assistant",
  PAL_MODEL_JUDGE: "env-judge",
};

function pal(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("node", ["bin/pal.mjs", ...args], { env, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  // The CLI creates and migrates the database; the test then defines two endpoints in it.
  const first = await pal("models");
  expect(first.stderr).toBe("");
  expect(first.stdout).toContain("none defined");
  vi.stubEnv("PAL_DB", file);
  vi.stubEnv("PAL_SECRET_KEY", "cli-models-test");
  const db = openDb(file);
  try {
    const lab = saveEndpoint(db, {
      name: "lab vLLM",
      baseUrl: "http://10.0.0.5:8000/v1",
      apiKey: secret,
      models: ["qwen3-32b"],
      concurrency: 16,
      rpm: 600,
      tpm: 200_000,
      timeoutMs: 30_000,
      jsonMode: "json_schema",
      batchApi: true,
    });
    saveEndpoint(db, { name: "openai", baseUrl: "https://api.openai.com/v1", jsonMode: "json_object" });
    saveModelSetting(db, { name: "judge", endpointId: lab });
    saveModelSetting(db, { name: "judge:strict", model: "qwen3-judge", endpointId: lab });
    saveModelSetting(db, { name: "assistant", model: "qwen3-32b", endpointId: lab });
    recordJsonModeRefusal(db, lab, "json_schema", "HTTP 400: response_format json_schema is not supported");
  } finally {
    db.$client.close();
    vi.unstubAllEnvs();
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("pal models", () => {
  it("lists endpoints with URL, limits, JSON mode and the roles and judges on them; no key", async () => {
    const r = await pal("models");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("lab vLLM  http://10.0.0.5:8000/v1");
    expect(r.stdout).toContain("in flight 16 · 600 requests/min · 200,000 tokens/min · timeout 30,000 ms");
    expect(r.stdout).toMatch(
      /JSON mode json_schema, now json_object \(json_schema refused .*not supported.*\) · key set · models qwen3-32b · Batch API yes/,
    );
    expect(r.stdout).toContain("used by assistant, judge, judge:strict");
    expect(r.stdout).toContain("openai  https://api.openai.com/v1");
    expect(r.stdout).toContain(
      "in flight PAL_LLM_CONCURRENCY per process · no requests/min limit · no tokens/min limit · timeout PAL_LLM_TIMEOUT_MS",
    );
    expect(r.stdout).toMatch(/JSON mode json_object · key missing · Batch API no/);
    expect(r.stdout).toContain("used by no role yet");
    expect(r.stdout).toMatch(/judge:strict +qwen3-judge +endpoint lab vLLM · key set/);
    expect(r.stdout).toMatch(/user-simulator +- +http:\/\/127\.0\.0\.1:9\/v1 \(env\)/);
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it("--json gives the same without keys", async () => {
    const r = await pal("models", "list", "--json");
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(secret);
    const out = JSON.parse(r.stdout);
    expect(out.endpoints.map((e: { name: string; usedBy: string[] }) => [e.name, e.usedBy])).toEqual([
      ["lab vLLM", ["assistant", "judge", "judge:strict"]],
      ["openai", []],
    ]);
    expect(out.endpoints[0]).toMatchObject({
      rpm: 600,
      tpm: 200_000,
      concurrency: 16,
      jsonMode: "json_schema",
      jsonModeFallback: "json_object",
      key: "set",
      batchApi: true,
    });
    expect(out.endpoints[1]).toMatchObject({ name: "openai", batchApi: false });
    expect(out.endpoints[0]).not.toHaveProperty("apiKeyEnc");
    expect(out.roles.find((c: { name: string }) => c.name === "judge")).toMatchObject({
      model: "env-judge",
      endpoint: { name: "lab vLLM", batchApi: true },
    });
  });
});
