import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * The dry run's memory-building rows: per method, calls (exact or min–max) and tokens, 0 for users
 * whose memory is complete; in the CLI's table and JSON. Real database, real builder, fake model server.
 */
import { describe, expect, it } from "vitest";
import { palResponder } from "@/test/h2memory-responder";
import { demoDatasets } from "@/lib/demo/seed";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "@/lib/assistants/core/build";
import { datasetByName, loadSessions } from "@/lib/assistants/core/sessions";
import { BUILD_TOKEN_GUESS } from "@/lib/assistants/core/build-estimate";
import { dryRun } from "./dry-run";
import { dryRunTable } from "./format";
import { knownMethod } from "./method-choices";

const m = fakeModelPerTest(palResponder);
const NAME = "PAL-Set demo (en)";

describe("dry run: memory building", () => {
  it("adds a build row per method (0 for vanilla, exact for recursum, bounds for h2memory), and 0 once built", async () => {
    const t = m.db();
    await demoDatasets()
      .find((d) => d.name === NAME)!
      .run(t.db);
    const ds = datasetByName(t.db, NAME);
    const user = "0000";
    const config = {
      methods: [{ name: "vanilla" }, { name: "recursum" }, { name: "recursum", label: "recursum-2" }, { name: "h2memory" }],
      tasks: ["requirement"],
      users: [user],
      reference: "vanilla",
    };
    const d = dryRun(t.db, ds.id, config, knownMethod());
    expect(m.fake.chatRequests.length).toBe(0);
    const by = (name: string) => d.builds.find((b) => b.method === name)!;
    expect(d.builds.map((b) => b.method)).toEqual(["vanilla", "recursum", "recursum-2", "h2memory"]);
    expect(by("vanilla")).toMatchObject({ users: 1, usersBuilt: 0, calls: {}, total: { min: 0, max: 0 }, exact: true });
    const sessions = loadSessions(t.db, ds, user);
    const n = sessions.filter((s) => s.dialogue.length).length + sessions.filter((s) => s.logs.length).length;
    const guess = BUILD_TOKEN_GUESS.assistant!;
    expect(by("recursum")).toMatchObject({
      calls: { assistant: { min: n, max: n } },
      total: { min: n, max: n },
      exact: true,
      promptTokens: { min: n * guess.prompt, max: n * guess.prompt },
      completionTokens: { min: n * guess.completion, max: n * guess.completion },
    });
    // The same method and options under a second label share the memory: built once.
    expect(by("recursum-2")).toMatchObject({ total: { min: 0, max: 0 }, note: "shares the memory of recursum" });
    const h2 = by("h2memory");
    expect(h2.exact).toBe(false);
    expect(h2.total!.min).toBeLessThan(h2.total!.max);
    expect(h2.note).toMatch(/at most/);
    expect(d.withBuilds.calls).toEqual({ min: d.total.calls.total + n + h2.total!.min, max: d.total.calls.total + n + h2.total!.max });

    const table = dryRunTable(d.rows, d.total, d.tokenBasis, d);
    expect(table).toContain(`recursum\texact\t1 (0)\t${n}\t0\t${n}\t`);
    expect(table).toMatch(/h2memory\testimate\t1 \(0\)\t\d+–\d+\t/);
    expect(table).toContain("total with memory building:");
    // The worst case: every call's three tries invalid in each of the three job attempts.
    expect(d.worstCase).toEqual({ attempts: d.withBuilds.calls.max * 3 * 3, triesPerCall: 3, jobAttempts: 3, guardProbe: 20 });
    expect(table).toContain(`worst case (every reply invalid): ${d.withBuilds.calls.max * 9} paid attempts`);

    await buildMemory(t.db, {
      dataset: ds,
      method: "recursum",
      users: [user],
      llm: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 1500 }),
    });
    const again = dryRun(t.db, ds.id, config, knownMethod());
    expect(again.builds.find((b) => b.method === "recursum")).toMatchObject({ usersBuilt: 1, calls: {}, total: { min: 0, max: 0 } });
  });
});
