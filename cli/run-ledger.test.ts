/**
 * The ledger is complete (issue 27.4): `pal run` with a memory build that fails midway while other
 * build calls are on their way. The TEST DOUBLE counts the tokens it served; once the command has
 * exited, the ledger holds every one of them (the replies that came after the build failed included),
 * and the build's rows carry the experiment they were made for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { tempDb } from "@/test/db";
import { runPal, oneRun } from "@/test/pal-cli";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { stepOf } from "@/lib/assistants/h2memory/prompts";

describe("pal run: every request that reached the endpoint is in the ledger", () => {
  let fake: FakeOpenAI;
  const t = tempDb();
  beforeAll(async () => {
    await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
    t.cleanup();
  });

  it("records the replies that arrive after the memory build failed, with the experiment, token for token", async () => {
    let situations = 0;
    // Every reply takes a while, so several build calls are in flight; the third situation step is
    // refused (HTTP 400: the same request always is), which fails the build while the others are out.
    fake.setResponder((req) => {
      const r = protocolResponder(req);
      return typeof r === "string" ? { content: r, delayMs: 300 } : r;
    });
    fake.setFault((req) => {
      if (stepOf(req.messages as never) !== "situation") return undefined;
      situations++;
      return situations % 3 === 0 ? { kind: "status", status: 400, message: "this request is refused" } : undefined;
    });
    const r = await runPal(t.file, fake.baseURL, oneRun("h2memory", "requirement", "--users", "0000"), {
      env: { PAL_LLM_RETRIES: "0", PAL_MODEL_EMBEDDING: "embed-model" },
    });
    expect(r.code, r.stderr).toBe(3);
    // The command waited for the replies still on their way, and said so.
    expect(r.stderr).toMatch(/waiting for \d+ model repl(y|ies) still in flight/);

    const d = new Database(t.file, { readonly: true });
    const l = d
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c,
         coalesce(sum(status = 'ok'), 0) AS ok FROM llm_calls WHERE cache_hit = 0`,
      )
      .get() as { n: number; p: number; c: number; ok: number };
    const exp = (d.prepare("SELECT id FROM experiments").get() as { id: number }).id;
    const build = d
      .prepare("SELECT count(*) AS n, coalesce(sum(experiment_id = ?), 0) AS mine FROM llm_calls WHERE memory_version_id IS NOT NULL")
      .get(exp) as { n: number; mine: number };
    const errors = d.prepare("SELECT error FROM jobs WHERE experiment_id = ?").all(exp) as Array<{ error: string }>;
    const linked = d.prepare("SELECT count(*) AS n FROM experiment_memory_versions WHERE experiment_id = ?").get(exp) as { n: number };
    d.close();
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e.error).toMatch(/h2memory memory of user "0000" could not be built/);
    // Every request reached the ledger; every reply the server finished, with the usage it reported.
    expect(l.n).toBe(fake.log.length);
    expect(l.ok).toBe(fake.served.replies);
    expect(l.p).toBe(fake.served.promptTokens);
    expect(l.c).toBe(fake.served.completionTokens);
    // The failed build's calls are the experiment's, and its version is in the experiment's cost.
    expect(build.n).toBeGreaterThan(0);
    expect(build.mine).toBe(build.n);
    expect(linked.n).toBe(1);
  }, 180_000);

  it("--max-calls 2 with a memory method: 2 requests reach the endpoint, memory building included, and the run pauses", async () => {
    const u = tempDb();
    await importPalset(u.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    fake.setFault(undefined);
    fake.setResponder(protocolResponder);
    const before = fake.log.length;
    try {
      const r = await runPal(u.file, fake.baseURL, oneRun("memorybank", "requirement", "--users", "0000", "--max-calls", "2"), {
        env: { PAL_MODEL_EMBEDDING: "embed-model" },
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/paused.*spend cap of 2 paid calls was reached/);
      expect(fake.log.length - before).toBe(2);
      const d = new Database(u.file, { readonly: true });
      const built = d
        .prepare("SELECT count(*) AS n FROM llm_calls WHERE memory_version_id IS NOT NULL AND experiment_id IS NOT NULL")
        .get() as {
        n: number;
      };
      d.close();
      expect(built.n).toBe(2);
    } finally {
      u.cleanup();
    }
  }, 120_000);
});
