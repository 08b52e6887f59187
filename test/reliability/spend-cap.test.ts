/**
 * Reliability check (issue 23.2, 23.4, 27.4) on the real app (`next start`) with the TEST DOUBLE as
 * every endpoint, as the probe found it through the browser's API:
 *
 * - an experiment with H2Memory for one user and a spend cap of 2 calls, launched and run by the
 *   server's worker: exactly 2 requests reach the endpoint (memory building included), the run pauses
 *   with the cap's message, and both are in the ledger, carrying the experiment;
 * - an experiment whose judge batch is out is cancelled through the API: the batch is cancelled at the
 *   endpoint, which finishes its lines anyway; the server's worker reads them into the ledger, and
 *   the ledger holds every token the endpoint served.
 */
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { modelEnv, PASSWORD, postJson, signIn, startApp, tempDir, waitUntil, type App } from "./app";

describe("the spend cap and the ledger through the real server", () => {
  const tmp = tempDir("spend-cap");
  const dbPath = path.join(tmp.dir, "live.db");
  let fake: FakeOpenAI;
  let app: App | null = null;
  let datasetId = 0;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ respond: protocolResponder });
    const db = openDb(dbPath);
    await createUser(db, { email: "rel-r@pal.local", role: "researcher", password: PASSWORD });
    datasetId = (await importPalset(db, { paths: [PALSET_EN], name: "en", lang: "en" })).datasetId;
    db.$client.close();
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    tmp.cleanup();
  });

  // It builds the app first when the build is missing or stale (minutes on a shared machine).
  it(
    "a cap of 2 with H2Memory sends 2 requests; a cancelled batch is cancelled and read into the ledger",
    { timeout: 900_000 },
    async () => {
      app = await startApp(dbPath, { ...modelEnv(fake.baseURL), PAL_MODEL_EMBEDDING: "fake-embed", PAL_BATCH_POLL_MS: "300" });
      const jar = await signIn(app.base, "rel-r@pal.local", PASSWORD);
      const watch = new Database(dbPath, { readonly: true, fileMustExist: true });
      const status = (id: number) =>
        watch.prepare("SELECT status, error FROM experiments WHERE id = ?").get(id) as { status: string; error: string };
      const ledger = () =>
        watch
          .prepare(
            "SELECT count(*) AS n, coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c FROM llm_calls WHERE cache_hit = 0",
          )
          .get() as { n: number; p: number; c: number };
      const launch = async (config: Record<string, unknown>) => {
        const r = await postJson(app!.base, jar, "/api/experiments", { name: "capped", datasetId, config: { users: ["0000"], ...config } });
        expect(r.status, await r.clone().text()).toBe(201);
        return ((await r.json()) as { experiment: { id: number } }).experiment.id;
      };
      try {
        // BM25 asked for: the Mem-PAL preset the launch starts from retrieves densely, and this endpoint serves no embeddings.
        const capped = await launch({ methods: [{ name: "h2memory" }], tasks: ["requirement"], retriever: "bm25", spendCap: { calls: 2 } });
        await waitUntil("the capped run to pause", () => status(capped).status === "paused", 300_000);
        await waitUntil("both requests in the ledger", () => ledger().n === fake.log.length);
        expect(fake.log.length).toBe(2);
        expect(status(capped).error).toMatch(/spend cap of 2 paid calls was reached/);
        const built = watch
          .prepare("SELECT count(*) AS n FROM llm_calls WHERE experiment_id = ? AND memory_version_id IS NOT NULL")
          .get(capped) as {
          n: number;
        };
        expect(built.n).toBe(2);

        fake.batch.hold(true);
        fake.batch.finishOnCancel(true);
        const batched = await launch({ methods: [{ name: "vanilla" }], tasks: ["requirement"], judgeBatch: true });
        const batch = () =>
          watch.prepare("SELECT status, remote_id AS remoteId, requests FROM llm_batches WHERE experiment_id = ?").get(batched) as
            { status: string; remoteId: string | null; requests: number } | undefined;
        await waitUntil("the judge batch to be submitted", () => !!batch()?.remoteId, 300_000);
        const cancel = await postJson(app.base, jar, `/api/experiments/${batched}`, { action: "cancel" });
        expect(cancel.status, await cancel.clone().text()).toBe(200);
        expect(status(batched).status).toBe("cancelled");
        // Asked to cancel at the endpoint; its lines under way still finish there (and are paid for).
        expect(fake.batch.batches.at(-1)!.status).toBe("cancelling");
        expect(batch()!.status).toBe("cancelling");
        await fake.batch.release();
        await waitUntil("the server's worker to read the cancelled batch", () => batch()!.status === "cancelled");
        const judged = watch
          .prepare(
            `SELECT count(*) AS n FROM llm_calls c JOIN jobs j ON j.id = c.job_id WHERE j.experiment_id = ? AND c.role = 'judge' AND c.cache_hit = 0`,
          )
          .get(batched) as { n: number };
        expect(judged.n).toBe(batch()!.requests);
        // Every request that reached the endpoint is in the ledger, with every token it served.
        const l = ledger();
        expect(l.n).toBe(fake.log.length);
        expect(l.p).toBe(fake.served.promptTokens);
        expect(l.c).toBe(fake.served.completionTokens);
        console.log(`spend cap check: 2 of 2 requests under the cap; cancelled batch of ${batch()!.requests} lines read into the ledger`);
      } finally {
        watch.close();
      }
    },
  );
});
