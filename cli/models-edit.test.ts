/**
 * `pal models add|set` from the real CLI: an endpoint defined and changed without the browser, its key
 * read from a variable the user names (never printed), roles pointed at it; and `pal memory methods`,
 * each method (the four H2Memory ablations too) with its own description, in aligned columns.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { resolveModelConfig } from "@/lib/llm/config";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cli-models-edit-"));
const file = path.join(dir, "cli.db");
const secret = "sk-local-7777";
const env: NodeJS.ProcessEnv = { ...process.env, PAL_DB: file, PAL_SECRET_KEY: "models-edit-test", LOCAL_KEY: secret };

function pal(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("node", ["bin/pal.mjs", ...args], { env, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("pal models add|set", () => {
  it("defines an endpoint with its key from a named variable, points roles at it, and changes only the flags given", async () => {
    const add = await pal(
      ...["models", "add", "local", "--base-url", "http://127.0.0.1:8080/v1/", "--key-env", "LOCAL_KEY", "--models", "qwen2,bge"],
      ...[
        "--concurrency",
        "2",
        "--timeout",
        "30",
        "--json-mode",
        "json_schema",
        "--use-for",
        "assistant=qwen2,judge=qwen2,embedding=bge",
        "--json",
      ],
    );
    expect(add.stderr).toBe("");
    expect(add.status).toBe(0);
    expect(add.stdout).not.toContain(secret);
    expect(JSON.parse(add.stdout)).toMatchObject({
      name: "local",
      baseUrl: "http://127.0.0.1:8080/v1",
      models: ["qwen2", "bge"],
      concurrency: 2,
      timeoutMs: 30_000,
      jsonMode: "json_schema",
      key: "set",
      usedBy: ["assistant", "judge", "embedding"],
    });
    vi.stubEnv("PAL_DB", file);
    vi.stubEnv("PAL_SECRET_KEY", "models-edit-test");
    const db = openDb(file);
    expect(resolveModelConfig(db, "judge")).toMatchObject({
      model: "qwen2",
      apiKey: secret,
      jsonMode: "json_schema",
      baseURL: "http://127.0.0.1:8080/v1",
    });
    expect(resolveModelConfig(db, "embedding").model).toBe("bge");

    const set = await pal("models", "set", "local", "--timeout", "5", "--json-mode", "off");
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /^changed local {2}http:\/\/127\.0\.0\.1:8080\/v1\n {2}in flight 2 · .* · timeout 5,000 ms\n {2}JSON mode off · key set · models qwen2, bge/,
    );
    expect(resolveModelConfig(db, "assistant")).toMatchObject({ model: "qwen2", apiKey: secret, jsonMode: "off" });
    db.$client.close();
  });

  it("refuses a second add, a set of no endpoint, an unset key variable and an unknown JSON mode, naming each", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["models", "add", "local", "--base-url", "http://x/v1"], /endpoint "local" exists: change it with pal models set "local"/],
      [["models", "set", "nowhere", "--rpm", "3"], /no endpoint "nowhere": define it with pal models add "nowhere" --base-url URL/],
      [
        ["models", "add", "other", "--base-url", "http://x/v1", "--key-env", "NOT_SET_ANYWHERE"],
        /--key-env: the environment variable NOT_SET_ANYWHERE is not set/,
      ],
      [["models", "set", "local", "--json-mode", "yes"], /JSON mode "yes" is not one of off, json_object, json_schema/],
      [["models", "set", "local", "--timeout", "0"], /--timeout: "0" is not a positive whole number/],
      [["models", "set", "local", "--use-for", "wizard=x"], /unknown role "wizard"/],
    ];
    for (const [args, message] of cases) {
      const r = await pal(...args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe("pal memory methods", () => {
  it("gives each H2Memory ablation its own description, in aligned columns", async () => {
    const r = await pal("memory", "methods");
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n");
    const ablations = lines.filter((l) => l.startsWith("h2memory-no-"));
    expect(ablations).toHaveLength(4);
    const descriptions = lines.map((l) => l.replace(/^\S+\s+/, ""));
    expect(new Set(descriptions).size).toBe(lines.length);
    const column = new Set(lines.map((l) => l.length - l.replace(/^\S+\s+/, "").length));
    expect(column.size).toBe(1);
  });
});
