/**
 * Issue 41.3: the run card of a run with an external method lists the models its service says it calls
 * outside the run (GET /) and says those calls are outside the ledger and the audit; the statement travels
 * in the bundle. A real HTTP method server, a real run, real SQLite.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { externalRunEnv } from "@/test/external-run";
import { runExperiment } from "@/lib/experiments/worker";
import { readRunRecord } from "@/lib/experiments/run-record";
import { recordExternalServices } from "@/lib/experiments/external-services";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { exportBundle } from "./export";
import { runCardOfBundle, runCardOfExperiment } from "./run-card";

const env = externalRunEnv();
const experimentConfigText = (e: { db: import("@/db/client").Db; id: number }) =>
  (e.db.$client.prepare("SELECT config FROM experiments WHERE id = ?").get(e.id) as { config: string }).config;

describe("the run card of a run with an external method", () => {
  it("lists the models the service calls outside the run, as outside the ledger and the audit, in the bundle's card too", async () => {
    env.svc.setOutsideModels(["gpt-4o-mini (fact extraction)", "bge-reranker"]);
    const e = await env.experiment({}, { label: "Mine" });
    expect(await runExperiment(e.db, e.id, e.deps)).toBe("done");
    expect(readRunRecord(e.db, e.id)?.external).toEqual([
      expect.objectContaining({
        method: "mine",
        key: "Mine",
        service: "test-method 1",
        outsideModels: ["gpt-4o-mini (fact extraction)", "bge-reranker"],
      }),
    ]);
    const card = runCardOfExperiment(e.db, e.id, "md");
    expect(card).toContain("External methods");
    expect(card).toMatch(
      /It calls models outside the run: gpt-4o-mini \(fact extraction\), bge-reranker\. Those calls are outside the ledger, the costs and the protocol audit/,
    );
    const file = path.join(path.dirname(e.file), "card.palbundle");
    exportBundle(e.db, e.id, file);
    expect(runCardOfBundle(file, "md")).toContain("It calls models outside the run: gpt-4o-mini (fact extraction), bge-reranker.");
    expect(runCardOfExperiment(e.db, e.id, "html")).toContain("bge-reranker");
  }, 60_000);

  it("says so when the service calls no model outside the run, and keeps what it said once it is down", async () => {
    const e = await env.experiment();
    expect(await runExperiment(e.db, e.id, e.deps)).toBe("done");
    expect(runCardOfExperiment(e.db, e.id, "md")).toContain("It calls no model outside the run (as it says).");
    // Started again with the service down: what it said before stays, with why it did not answer now.
    await env.svc.close();
    const config = parseExperimentConfig(JSON.parse(experimentConfigText(e)));
    // This process asked when the run started: a start soon after (a batch polled) does not ask again.
    expect(await recordExternalServices(e.db, e.id, config)).toEqual([]);
    const [again] = await recordExternalServices(e.db, e.id, config, { again: true });
    expect(again).toMatchObject({ service: "test-method 1", error: expect.stringMatching(/GET \//) });
    expect(runCardOfExperiment(e.db, e.id, "md")).toContain("service test-method 1");
  }, 60_000);
});
