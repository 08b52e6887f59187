import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..", "..");
let dir: string;
let fake: FakeOpenAI;
let campaignId: number;
let pairwiseId: number;

/** The CLI's environment: the test's database and the fake server as the judge endpoint. */
const palEnv = () => ({
  ...process.env,
  PAL_DB: path.join(dir, "pal.db"),
  OPENAI_BASE_URL: fake.baseURL,
  OPENAI_API_KEY: "k",
  PAL_MODEL_JUDGE: "fake-judge",
});

async function pal(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const env = palEnv();
    const { stdout, stderr } = await run(process.execPath, [path.join(root, "bin", "pal.mjs"), ...args], { cwd: dir, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-judge-cli-"));
  fake = await startFakeOpenAI({
    respond: (r) => {
      const p = String(r.messages[0].content);
      if (p.includes('"assistant-1": <score>')) {
        return {
          content: JSON.stringify({
            analysis: { "assistant-1": "a", "assistant-2": "b", overall: "c" },
            scores: { "assistant-1": 7, "assistant-2": 6 },
          }),
          delayMs: 60,
        };
      }
      return `Reasoning.\n\nBetter Response: ${p.includes("Answer (A): Go hiking") ? "A" : "B"}`;
    },
  });
  const db = openDb(path.join(dir, "pal.db"));
  const r = await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" });
  const a = await createUser(db, { email: "a@x.io", role: "annotator", password: "password-123" });
  const text = fs.readFileSync(path.join(root, "fixtures/annotation/hicupid-ab-demo.jsonl"), "utf8");
  campaignId = createCampaign(
    db,
    { name: "h", kind: "hicupid-ab", perItem: 1, annotatorIds: [a.id], source: { kind: "upload", fileName: "h.jsonl", text } },
    r.id,
  ).id;
  const pairs = fs.readFileSync(path.join(root, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
  pairwiseId = createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [a.id],
      source: { kind: "upload", fileName: "p.jsonl", text: pairs },
    },
    r.id,
  ).id;
  db.$client.close();
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("pal campaign judge", () => {
  it("estimates, runs with progress on stderr, and a second run is free", async () => {
    const dry = await pal("campaign", "judge", "--campaign", String(campaignId), "--dry-run", "--json");
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ judge: "hicupid-ab", modelConfig: "judge", model: "fake-judge", items: 4, calls: 4 });
    expect(fake.chatRequests).toHaveLength(0);

    const first = await pal("campaign", "judge", "--campaign", String(campaignId), "--json");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 8, judged: 8, failed: 0, requests: 4 });
    expect(first.stderr).toContain("judged 8/8");
    expect(fake.chatRequests).toHaveLength(4);

    const again = await pal("campaign", "judge", "--campaign", String(campaignId), "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ judged: 8, newlyJudged: 0, requests: 0 });
    expect(fake.chatRequests).toHaveLength(4);
  });

  it("names the bad option in one line", async () => {
    const r = await pal("campaign", "judge", "--campaign", String(campaignId), "--judge", "judge:none");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/judge: "judge:none" is not a judge configuration/);
  });

  it("resumes after the process is killed mid-run: judged items are kept, nothing judged is paid for again", async () => {
    const before = fake.chatRequests.length;
    const env = palEnv();
    const child = spawn(process.execPath, [path.join(root, "bin", "pal.mjs"), "campaign", "judge", "--campaign", String(pairwiseId)], {
      cwd: dir,
      env,
    });
    // Kill it hard once a few items are stored (each progress line follows an item's transaction).
    await new Promise<void>((resolve) => {
      let err = "";
      child.stderr.on("data", (d) => {
        err += d;
        if ((err.match(/judged \d+\/12/g) ?? []).length >= 2) child.kill("SIGKILL");
      });
      child.on("exit", () => resolve());
    });
    const paidFirst = fake.chatRequests.length - before;
    const dry = JSON.parse((await pal("campaign", "judge", "--campaign", String(pairwiseId), "--dry-run", "--json")).stdout);
    expect(dry.pending).toBeGreaterThan(0);
    expect(dry.pending).toBeLessThan(12);
    expect(dry.totalCalls).toBe(72);
    const done = 12 - dry.pending;
    const resumed = await pal("campaign", "judge", "--campaign", String(pairwiseId), "--json");
    expect(resumed.code).toBe(0);
    const r = JSON.parse(resumed.stdout);
    expect(r).toMatchObject({ judged: 12, failed: 0, newlyJudged: dry.pending });
    // Calls of the judged verdicts are never asked again; only those lost in flight at the kill are repeated.
    expect(r.requests).toBeLessThanOrEqual(dry.calls);
    expect(paidFirst + r.requests).toBeGreaterThanOrEqual(72);
    expect(paidFirst).toBeGreaterThanOrEqual(done * 6);
  });
});
