/**
 * `pal run` goes through the same launch limits as the browser (issue 14, item 2): over a limit it
 * exits with the error naming the limit and how to raise it, creating nothing; `--over-limit` skips the
 * per-launch limits for that run; `--dry-run` prints "N jobs of max M".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { tempDb } from "@/test/db";
import { startFakeOpenAIThread, type ThreadedFakeOpenAI } from "@/test/fake-openai-thread";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { LIMIT_DEFAULTS, setExperimentLimits } from "@/lib/experiments/limits";

let t: ReturnType<typeof tempDb>;
let fake: ThreadedFakeOpenAI;

const pal = (...args: string[]) =>
  spawnSync("node", ["bin/pal.mjs", ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      PAL_DB: t.file,
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_API_KEY: "test",
      PAL_MODEL_ASSISTANT: "assistant-model",
      PAL_MODEL_JUDGE: "judge-model",
    },
  });
const RUN = ["run", "--dataset", "en", "--method", "vanilla", "--task", "requirement", "--users", "0000", "--repeats", "2"];
const experiments = () => (t.db.$client.prepare("SELECT count(*) AS n FROM experiments").get() as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
  setExperimentLimits(t.db, { ...LIMIT_DEFAULTS, maxRepeats: 1 }, null);
  fake = await startFakeOpenAIThread({ latencyMs: 0, responder: "requirement" });
});
afterAll(async () => {
  await fake.close();
  t.cleanup();
});

describe("pal run and the launch limits", () => {
  it("over a limit: exits 1 naming the limit and how to raise it; nothing is created", () => {
    const r = pal(...RUN);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("config.repeats: 2 repeats, over the limit of 1 repeats per launch");
    expect(r.stderr).toContain("Admin → Settings");
    expect(experiments()).toBe(0);
  });

  it("--dry-run shows the launch against the limits", () => {
    const r = pal(...RUN, "--dry-run");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/limits: \d+ jobs of max 250000, 1 methods of max 20, 2 repeats of max 1/);
    expect(r.stdout).toContain("over the limit: config.repeats: 2 repeats");
  });

  it("--over-limit runs it anyway", () => {
    const r = pal(...RUN, "--over-limit", "--json");
    expect(r.stderr).not.toContain("pal:");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe("done");
    expect(experiments()).toBe(1);
  });
});
