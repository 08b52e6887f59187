import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * The dry run counts a memory build's calls once when several methods make them with the same requests
 * (H2Memory and its ablations). First with numbers worked out by hand on two made-up sessions, then
 * against real builds of the demo data (real builder, client, cache; the fake OpenAI server as TEST
 * DOUBLE): an ablation's estimate must cover exactly what its build pays after H2Memory's.
 */
import { describe, expect, it } from "vitest";
import { palResponder } from "@/test/h2memory-responder";
import { demoDatasets } from "@/lib/demo/seed";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "@/lib/assistants/core/build";
import { datasetByName } from "@/lib/assistants/core/sessions";
import { getAssistant } from "@/lib/assistants/registry";
import type { Session } from "@/lib/assistants/core/types";
import { sharedBuildSavings } from "./build-sharing";
import { dryRun } from "./dry-run";
import { knownMethod } from "./method-choices";

const turn = { user: "u", assistant: "a", userAction: null, userActionCode: null, assistantAction: null, assistantActionCode: null };
const logs = (n: number) => Array.from({ length: n }, (_, i) => ({ timestamp: `t${i}`, content: `log ${i}` }));
/** A history session with 12 logs and 2 dialogue turns, then a query session with 5 logs and 1 turn. */
const SESSIONS: Session[] = [
  { seq: 1, key: "h1", split: "history", timestamp: null, logs: logs(12), dialogue: [turn, turn] },
  { seq: 2, key: "q1", split: "query", timestamp: null, logs: logs(5), dialogue: [turn] },
];
const estimate = (method: string) =>
  getAssistant(method).estimateBuild!(SESSIONS, {
    options: { k: 3, clusters: 8, seed: 42, window: 10 },
    datasetKind: "palset",
    retrieverKind: "bm25",
    done: new Set(),
  });

describe("shared memory builds, by hand", () => {
  it("splits H2Memory's calls by part and counts a part once across the ablations", () => {
    // By hand (window 10, 8 clusters). h1: 2 windows, 1..12 situations, 1 background, 1 outline call,
    // 0..2 rewrites. q1: 1 window, 1..5 situations, 1 background, 1 outline call, 0..1 rewrite; M_P made
    // from h1's 2 topics: 0..2 clusters × (type + principle) + 1 embedding; q1's 1 topic joins 0..1
    // cluster: 0..2 calls + 1 embedding.
    //   read:       min 2+1+1 + 1+1+1 = 7, max 2+12+1 + 1+5+1 = 22
    //   background: 2;  rewrite: 0..3;  principle: 0..6 chat, 0..2 embedding
    const h2 = estimate("h2memory");
    expect(h2.calls).toEqual({ assistant: { min: 9, max: 33 }, embedding: { min: 0, max: 2 } });
    const part = (e: typeof h2, k: RegExp) => e.shared!.find((p) => k.test(p.key))!.calls;
    expect(part(h2, /:read:[^:]*:[^:]*$/)).toEqual({ assistant: { min: 7, max: 22 }, embedding: { min: 0, max: 0 } });
    expect(part(h2, /:background:/)).toEqual({ assistant: { min: 2, max: 2 }, embedding: { min: 0, max: 0 } });
    expect(part(h2, /:rewrite:[^:]*:[^:]*$/)).toEqual({ assistant: { min: 0, max: 3 }, embedding: { min: 0, max: 0 } });
    expect(part(h2, /:principle:/)).toEqual({ assistant: { min: 0, max: 6 }, embedding: { min: 0, max: 2 } });

    const builds = ["h2memory", "h2memory-no-graph", "h2memory-no-background"].map((method) => ({
      method,
      shared: estimate(method).shared!.map((p) => ({ userKey: "u1", ...p })),
    }));
    const [a, graph, bg] = sharedBuildSavings(builds);
    expect(a).toEqual({ saved: {}, paidBy: [] });
    // w/o M_G builds what H2Memory builds: every call is H2Memory's (9..33 chat, 0..2 embedding).
    expect(graph).toEqual({ saved: { assistant: { min: 9, max: 33 }, embedding: { min: 0, max: 2 } }, paidBy: ["h2memory"] });
    // w/o M_B shares only the read part (7..22); its rewrites (no background) and so its M_P are its own.
    expect(bg).toEqual({ saved: { assistant: { min: 7, max: 22 }, embedding: { min: 0, max: 0 } }, paidBy: ["h2memory"] });
    // w/o M_B's own: 0..3 rewrites + 0..6 M_P chat, 0..2 embedding.
    expect(estimate("h2memory-no-background").calls).toEqual({ assistant: { min: 7, max: 31 }, embedding: { min: 0, max: 2 } });
  });

  it("lets a build that is done (no calls left) pay, whatever its place in the config", () => {
    const part = (n: number) => ({ userKey: "u", key: "k", calls: { assistant: { min: n, max: n } } });
    const r = sharedBuildSavings([
      { method: "a", shared: [part(5)] },
      { method: "b", shared: [{ userKey: "u", key: "k", calls: {} }] },
      { method: "c", shared: [part(5), { userKey: "u", key: "own", calls: { assistant: { min: 1, max: 1 } } }] },
    ]);
    expect(r.map((x) => x.saved.assistant ?? null)).toEqual([{ min: 5, max: 5 }, null, { min: 5, max: 5 }]);
    expect(r.map((x) => x.paidBy)).toEqual([["b"], [], ["b"]]);
  });
});

const m = fakeModelPerTest(palResponder);
const NAME = "PAL-Set demo (en)";

describe("shared memory builds against real builds", () => {
  it("a full reproduction's build estimate counts the ablations' shared calls once; real builds pay what it says", async () => {
    const t = m.db();
    await demoDatasets()
      .find((d) => d.name === NAME)!
      .run(t.db);
    const ds = datasetByName(t.db, NAME);
    const users = ["0000"];
    const methods = ["h2memory", "h2memory-no-graph", "h2memory-no-background", "h2memory-no-topic", "h2memory-no-principle"];
    const config = { methods: methods.map((name) => ({ name })), tasks: ["requirement"], users };
    const d = dryRun(t.db, ds.id, config, knownMethod());
    const row = (name: string) => d.builds.find((b) => b.method === name)!;
    const h2 = row("h2memory");
    expect(h2.sharedWith).toBeUndefined();
    // Every call of w/o M_G, w/o M_T and w/o M_P is one of H2Memory's requests.
    for (const name of ["h2memory-no-graph", "h2memory-no-topic", "h2memory-no-principle"]) {
      expect(row(name).total, name).toEqual({ min: 0, max: 0 });
      expect(row(name).note).toMatch(/^\d+–\d+ calls shared with h2memory \(the same requests: cache hits, counted there\)$/);
      expect(row(name).exact).toBe(true);
    }
    // w/o M_B pays its own rewrites and M_P only: less than a whole build.
    const nb = row("h2memory-no-background");
    expect(nb.total!.max).toBeLessThan(h2.total!.max);
    expect(nb.total!.max).toBeGreaterThan(0);
    expect(d.withBuilds.calls).toEqual({
      min: d.total.calls.total + h2.total!.min + nb.total!.min,
      max: d.total.calls.total + h2.total!.max + nb.total!.max,
    });

    // The real builds, one after another: H2Memory first, then each ablation pays only what its row says.
    const llm = ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 1500 });
    const paid = (method: string) =>
      (
        t.db.$client
          .prepare("select count(*) as n from llm_calls where status = 'ok' and cache_hit = 0 and purpose like ?")
          .get(`${method}.%`) as { n: number }
      ).n;
    for (const method of methods) {
      const r = await buildMemory(t.db, { dataset: ds, method, users, llm });
      expect(r.every((x) => x.status === "complete")).toBe(true);
      const b = row(method);
      expect(paid(method), method).toBeGreaterThanOrEqual(b.total!.min);
      expect(paid(method), method).toBeLessThanOrEqual(b.total!.max);
    }
    expect(paid("h2memory-no-graph") + paid("h2memory-no-topic") + paid("h2memory-no-principle")).toBe(0);
    expect(paid("h2memory-no-background")).toBeGreaterThan(0);
  }, 120_000);
});
