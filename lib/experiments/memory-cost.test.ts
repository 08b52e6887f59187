import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * Results count memory building apart from answering: the ledger rows of the memory versions an
 * experiment answered from (llm_calls.memory_version_id), per method, in the results, the CLI table
 * and the CSV/JSON export. Real database, real worker and builder, fake model server (TEST DOUBLE).
 */
import { describe, expect, it, vi } from "vitest";
import type { ChatRequest } from "@/test/fake-openai";
import { baselineResponder } from "@/test/baseline-responder";
import { experimentReplies } from "@/test/experiment-replies";
import { demoDatasets } from "@/lib/demo/seed";
import { ModelClient } from "@/lib/llm/client";
import { datasetByName } from "@/lib/assistants/core/sessions";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { experimentResults } from "./results";
import { exportExperiment } from "./export";
import { resultsTable } from "./format";

const answers = experimentReplies();
const m = fakeModelPerTest(baselineResponder((r) => answers(r as ChatRequest)));
const NAME = "PAL-Set demo (en)";
const prices = { assistant: { prompt: 1, completion: 2 }, judge: { prompt: 10, completion: 20 } };

describe("memory build in the results' ledger", () => {
  it("per method, apart from answering, from the ledger rows of the versions used; each version once in the total", async () => {
    vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
    const t = m.db();
    await demoDatasets()
      .find((d) => d.name === NAME)!
      .run(t.db);
    const ds = datasetByName(t.db, NAME);
    const config = {
      methods: [{ name: "vanilla" }, { name: "recursum" }, { name: "recursum", label: "recursum-b" }],
      tasks: ["requirement"],
      users: ["0000"],
      reference: "vanilla",
      prices,
    };
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 1500 }) });
    const { id } = createExperiment(t.db, { name: "with memory", datasetId: ds.id, config });
    expect(await runExperiment(t.db, id, deps, { concurrency: 2 })).toBe("done");

    const used = t.db.$client
      .prepare("select method, version_id as v from experiment_memory_versions where experiment_id = ? order by method")
      .all(id) as Array<{ method: string; v: number }>;
    expect(used.map((u) => u.method)).toEqual(["recursum", "recursum-b", "vanilla"]);
    // The two recursum labels share one memory.
    const version = used.find((u) => u.method === "recursum")!.v;
    expect(used.find((u) => u.method === "recursum-b")!.v).toBe(version);

    const rows = t.db.$client.prepare("select * from llm_calls where memory_version_id = ?").all(version) as Array<{
      role: string;
      status: string;
      cache_hit: number;
      prompt_tokens: number;
      completion_tokens: number;
      error: string | null;
    }>;
    expect(rows.length).toBeGreaterThan(0);
    const byHand = {
      calls: rows.filter((r) => r.status === "ok").length,
      cacheHits: rows.filter((r) => r.cache_hit).length,
      promptTokens: rows.reduce((s, r) => s + r.prompt_tokens, 0),
      completionTokens: rows.reduce((s, r) => s + r.completion_tokens, 0),
      requests: rows.filter((r) => !r.cache_hit).length,
      unusableAttempts: rows.filter((r) => r.status === "invalid" || r.status === "failed").length,
      unusablePromptTokens: rows.filter((r) => r.status === "invalid" || r.status === "failed").reduce((s, r) => s + r.prompt_tokens, 0),
      unusableCompletionTokens: rows
        .filter((r) => r.status === "invalid" || r.status === "failed")
        .reduce((s, r) => s + r.completion_tokens, 0),
      usageUnknown: 0,
      cutOff: rows.filter((r) => r.error?.startsWith("cut off at max_tokens")).length,
      cost: rows
        .filter((r) => !r.cache_hit)
        .reduce((s, r) => s + (r.prompt_tokens * prices.assistant.prompt + r.completion_tokens * prices.assistant.completion) / 1e6, 0),
    };
    expect(byHand.promptTokens).toBeGreaterThan(0);

    const res = experimentResults(t.db, id);
    const { cost, ...counts } = res.memoryBuildByMethod.recursum;
    const { cost: costByHand, ...countsByHand } = byHand;
    expect(counts).toEqual(countsByHand);
    expect(cost).toBeCloseTo(costByHand, 12);
    expect(res.memoryBuildByMethod["recursum-b"]).toEqual(res.memoryBuildByMethod.recursum);
    expect(res.memoryBuildByMethod.vanilla).toMatchObject({ calls: 0, promptTokens: 0, cost: 0 });
    // The experiment's total counts the shared version once.
    expect(res.memoryBuild.calls).toBe(byHand.calls);
    expect(res.memoryBuild.cost).toBeCloseTo(costByHand, 12);
    // Answering stays apart: the recursum jobs' ledger has no build call in it.
    const jobCalls = t.db.$client
      .prepare(
        "select count(*) as n from llm_calls c join jobs j on j.id = c.job_id where j.experiment_id = ? and j.method = 'recursum' and c.status = 'ok'",
      )
      .get(id) as { n: number };
    expect(res.ledgerByMethod.recursum.calls).toBe(jobCalls.n);

    const table = resultsTable(res);
    expect(table).toContain(
      `recursum\tmemory build\t${byHand.calls}\t${byHand.cacheHits}\t${byHand.promptTokens}\t${byHand.completionTokens}\t`,
    );
    expect(table).toMatch(/recursum\tanswering\t\d+/);
    const csv = exportExperiment(t.db, id, "csv").body;
    expect(csv).toContain(`ledger,recursum,memory-build.calls,,${byHand.calls},`);
    expect(csv).toContain(`ledger,recursum,memory-build.promptTokens,,${byHand.promptTokens},`);
    expect(csv).toMatch(/ledger,recursum,answering\.calls,,\d+,/);
    const json = JSON.parse(exportExperiment(t.db, id, "json").body);
    expect(json.memoryBuildByMethod.recursum.calls).toBe(byHand.calls);

    // A second experiment on the built memory makes no build call, and still shows what the memory it used cost.
    const ledgerRows = () =>
      (t.db.$client.prepare("select count(*) as n from llm_calls where memory_version_id is not null").get() as { n: number }).n;
    const before = ledgerRows();
    const second = createExperiment(t.db, {
      name: "again",
      datasetId: ds.id,
      config: { ...config, methods: [{ name: "recursum" }], reference: "recursum" },
    });
    expect(await runExperiment(t.db, second.id, deps, { concurrency: 2 })).toBe("done");
    expect(ledgerRows()).toBe(before);
    expect(experimentResults(t.db, second.id).memoryBuildByMethod.recursum.calls).toBe(byHand.calls);
  });
});
