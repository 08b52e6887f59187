/**
 * `pal run` against endpoints that misbehave the expensive way: every reply invalid (the run pauses itself
 * within 20 paid attempts and exits 3), some replies invalid (every paid attempt counts in the ledger the
 * CLI prints), and the --users flag (all means all; an unknown user is named).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { tempDb } from "@/test/db";
import { runPal, oneRun } from "@/test/pal-cli";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";

// no transport retries: each paid attempt in the ledger is one the run itself asked for
const pal = (dbFile: string, baseURL: string, args: string[]) => runPal(dbFile, baseURL, args, { env: { PAL_LLM_RETRIES: "0" } });

const VANILLA_REQUIREMENT = oneRun("vanilla", "requirement");

type Row = { status: string; cache_hit: number; prompt_tokens: number; completion_tokens: number };
function ledgerRows(file: string): Row[] {
  const d = new Database(file, { readonly: true });
  const rows = d
    .prepare("SELECT status, cache_hit, prompt_tokens, completion_tokens FROM llm_calls WHERE job_id IS NOT NULL")
    .all() as Row[];
  d.close();
  return rows;
}

describe("pal run: spending safety and honest accounting", () => {
  let fake: FakeOpenAI;
  const dbs: Array<ReturnType<typeof tempDb>> = [];
  const newDb = async () => {
    const t = tempDb();
    await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    dbs.push(t);
    return t;
  };
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
    for (const t of dbs) t.cleanup();
  });

  it("pauses a run whose every reply is invalid within 20 paid attempts, says why and exits 3", async () => {
    const t = await newDb();
    fake.setResponder(() => ({ content: "I cannot answer in JSON today.", promptTokens: 100, completionTokens: 7 }));
    const before = fake.chatRequests.length;
    const r = await pal(t.file, fake.baseURL, [...VANILLA_REQUIREMENT, "--json"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/paused.*first 20 attempts all failed.*invalid reply/);
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe("paused");
    expect(out.error).toMatch(/spend guard/);
    const sent = fake.chatRequests.length - before;
    expect(sent).toBe(20);
    // Every paid attempt is in the ledger the CLI prints, its tokens shown apart as unusable.
    const rows = ledgerRows(t.file);
    expect(rows.length).toBe(20);
    expect(out.ledger.requests).toBe(20);
    expect(out.ledger.calls).toBe(0);
    expect(out.ledger.promptTokens).toBe(20 * 100);
    expect(out.ledger.completionTokens).toBe(20 * 7);
    expect(out.ledger.unusableAttempts).toBe(20);
    expect(out.ledger.unusablePromptTokens).toBe(2000);
    // Nothing was marked failed: the jobs wait for the run to be resumed.
    const d = new Database(t.file, { readonly: true });
    const failed = (d.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'failed'").get() as { n: number }).n;
    d.close();
    expect(failed).toBe(0);

    // Resumed against a working endpoint, the run finishes.
    fake.setResponder(experimentReplies());
    const again = await pal(t.file, fake.baseURL, ["run", "--resume", String(out.experiment), "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).status).toBe("done");
  }, 120_000);

  it("counts every paid attempt, invalid replies included, in the printed ledger", async () => {
    const t = await newDb();
    const good = experimentReplies();
    // Every third request gets a reply that is not JSON: the client asks again, the item still succeeds.
    fake.setResponder((req, i) => (i % 3 === 0 ? { content: "not json", promptTokens: 11, completionTokens: 3 } : good(req)));
    const r = await pal(t.file, fake.baseURL, [...VANILLA_REQUIREMENT, "--users", "all", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const rows = ledgerRows(t.file);
    const paid = rows.filter((x) => !x.cache_hit);
    const bad = rows.filter((x) => x.status === "invalid" || x.status === "failed");
    expect(bad.length).toBeGreaterThan(0);
    expect(out.ledger.requests).toBe(paid.length);
    expect(out.ledger.calls).toBe(rows.filter((x) => x.status === "ok").length);
    expect(out.ledger.promptTokens).toBe(rows.reduce((s, x) => s + x.prompt_tokens, 0));
    expect(out.ledger.completionTokens).toBe(rows.reduce((s, x) => s + x.completion_tokens, 0));
    expect(out.ledger.unusableAttempts).toBe(bad.length);
    expect(out.ledger.unusablePromptTokens).toBe(bad.reduce((s, x) => s + x.prompt_tokens, 0));
  }, 120_000);

  it("names an unknown user", async () => {
    const t = await newDb();
    fake.setResponder(experimentReplies());
    const r = await pal(t.file, fake.baseURL, [...VANILLA_REQUIREMENT, "--users", "nobody-here"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/user "nobody-here"/);
  }, 60_000);
});
