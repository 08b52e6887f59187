import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS, envFlag, envNumber, envValue, roleEnv } from "./config";

const root = path.resolve(__dirname, "..");
const listed = new Set<string>(ENV_VARS.map((v) => v.name));
const ROLES = "(ASSISTANT|USER_SIMULATOR|JUDGE|EMBEDDING)";
/** Listed as such, or an instance of a `<ROLE>` pattern. */
const isListed = (n: string) => listed.has(n) || new RegExp(`^PAL_(MODEL_${ROLES}|${ROLES}_(BASE_URL|API_KEY|JSON_MODE))$`).test(n);

/** Source files of the app, the CLI and the scripts (tests and fixtures set variables, they do not define them). */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mjs|sh)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

describe("lib/config", () => {
  it("lists every PAL_* variable the code reads, and docs/configuration.md documents each listed one", () => {
    const files = [
      ...["lib", "db", "cli", "app", "bin", "scripts", "bench"].flatMap((d) => sources(d)),
      "instrumentation.ts",
      "next.config.ts",
    ];
    const read = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), "utf8");
      // Reads only: process.env.PAL_X, env.PAL_X, envValue("PAL_X"), envNumber("PAL_X"), envFlag("PAL_X").
      for (const m of text.matchAll(/(?:\benv\.|process\.env\.|env(?:Value|Number|Flag)\(")(PAL_[A-Z_]+)/g)) read.add(m[1]);
    }
    expect([...read].filter((n) => !isListed(n))).toEqual([]);
    const doc = fs.readFileSync(path.join(root, "docs", "configuration.md"), "utf8");
    expect(ENV_VARS.map((v) => v.name).filter((n) => !doc.includes(`\`${n}\``))).toEqual([]);
  });

  it("reads unset and empty as the default, numbers and switches by their rule", () => {
    const env = { PAL_LLM_RETRIES: "3", PAL_LLM_TIMEOUT_MS: "x", PAL_DB: "", PAL_TRUST_PROXY: "true", PAL_MODEL_USER_SIMULATOR: "m" };
    expect(envNumber("PAL_LLM_RETRIES", 6, env)).toBe(3);
    expect(envNumber("PAL_LLM_TIMEOUT_MS", 120_000, env)).toBe(120_000);
    expect(envNumber("PAL_LLM_CONCURRENCY", 4, env)).toBe(4);
    expect(envValue("PAL_DB", env)).toBeUndefined();
    expect(envFlag("PAL_TRUST_PROXY", env)).toBe(true);
    expect(roleEnv("user-simulator", "MODEL", env)).toBe("m");
    expect(roleEnv("judge", "BASE_URL", env)).toBeUndefined();
  });
});
