import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { openDb, type Db } from "@/db/client";
import { judgeLabels } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { ModelClient } from "@/lib/llm";
import { createCampaign, humanVsJudge } from "@/lib/annotation";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { runLlmJudge } from "./index";

/**
 * The whole path: a real experiment (`pal run`, dialogue task, two methods, against the fake server), a
 * pairwise campaign made from its dialogues, and the campaign's LLM judge. The judge uses the experiment's
 * prompts with the same inputs and replicate indices, so it reaches the experiment's verdicts and every
 * one of its calls is already in the cache.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
let dir: string;
let fake: FakeOpenAI;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-exp-judge-"));
  fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  env = {
    ...process.env,
    PAL_DB: path.join(dir, "pal.db"),
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "k",
    PAL_MODEL_ASSISTANT: "fake-assistant",
    PAL_MODEL_USER_SIMULATOR: "fake-simulator",
    PAL_MODEL_JUDGE: "fake-judge",
    PAL_MODEL_EMBEDDING: "fake-embed",
  };
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pal = (...args: string[]) => run(process.execPath, [path.join(root, "bin", "pal.mjs"), ...args], { cwd: dir, env });

describe("an LLM judge on a campaign made from an experiment", () => {
  it("reaches the experiment's pairwise verdicts from the cache, with no new request", async () => {
    await pal("demo");
    const { stdout } = await pal(
      "run",
      "--dataset",
      "PAL-Set demo (en)",
      "--method",
      "vanilla,vanilla-log",
      "--repeats",
      "1",
      "--task",
      "dialogue",
      "--users",
      "0000",
      "--json",
    );
    const exp = JSON.parse(stdout);
    expect(exp.status).toBe("done");
    const pairwise = exp.pairwise as Array<{ a: string; b: string; dimension: string; win: number; tie: number; lose: number }>;
    expect(pairwise.find((p) => p.dimension === "preference")).toMatchObject({ a: "vanilla", b: "vanilla-log", win: 3 });

    vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "k");
    const db: Db = openDb(path.join(dir, "pal.db"));
    try {
      const r = await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" });
      const a = await createUser(db, { email: "a@x.io", role: "annotator", password: "password-123" });
      const c = createCampaign(
        db,
        {
          name: "from exp",
          kind: "pairwise-dialogue",
          perItem: 1,
          annotatorIds: [a.id],
          source: { kind: "experiment", experimentId: exp.experiment, methodA: "vanilla", methodB: "vanilla-log" },
        },
        r.id,
      );
      expect(c.items).toBe(3);
      const before = fake.chatRequests.length;
      const run = await runLlmJudge(db, ModelClient.create(db), c.id, {}, r.id);
      expect(run).toMatchObject({ judged: 6, failed: 0, requests: 0 });
      expect(fake.chatRequests.length).toBe(before);
      const values = db.select().from(judgeLabels).where(eq(judgeLabels.runId, run.runId)).all();
      for (const p of pairwise) {
        const got = values.filter((v) => v.dimension === p.dimension).map((v) => v.value);
        expect({
          win: got.filter((v) => v === "Win").length,
          tie: got.filter((v) => v === "Tie").length,
          lose: got.filter((v) => v === "Lose").length,
        }).toEqual({
          win: p.win,
          tie: p.tie,
          lose: p.lose,
        });
      }
      // With no human labels yet, Table 11 compares nothing but still reads the run.
      expect(humanVsJudge(db, c.id, run.runId).dimensions.map((d) => d.table11.judge)).toEqual([
        { Win: 0, Tie: 0, Lose: 0 },
        { Win: 0, Tie: 0, Lose: 0 },
      ]);
    } finally {
      db.$client.close();
      vi.unstubAllEnvs();
    }
  });
});
