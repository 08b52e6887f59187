/**
 * `pal bundle verify` of a run with an external method (issue 41): the method's service is outside PAL
 * Studio, so its jobs are not replayed; the report names them apart ("needs the external service …
 * (not replayed)"), never as failed in the replay, and everything else (vanilla's jobs, the paper tables)
 * is replayed and verified, with the service down. Real HTTP method server, real SQLite, the real CLI.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { externalRunEnv } from "@/test/external-run";
import { runPal } from "@/test/pal-cli";
import { runExperiment } from "@/lib/experiments/worker";
import { exportBundle } from "./export";
import { verifyBundle } from "./verify";

const env = externalRunEnv();
const CLOSED = "http://127.0.0.1:9/v1";

describe("pal bundle verify, a run with an external method", () => {
  it("replays every other job offline and names the external method's jobs as needing its service, not as failed", async () => {
    const e = await env.experiment(
      { methods: [{ name: "mine", label: "Mine" }, { name: "vanilla" }], tasks: ["requirement", "dialogue"] },
      { label: "Mine" },
    );
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 2 })).toBe("done");
    const file = path.join(path.dirname(e.file), `external-${e.id}.palbundle`);
    exportBundle(e.db, e.id, file);
    // The service is gone: a replay that reached it would fail.
    await env.svc.close();
    const sent = env.svc.requests.length;
    const jobs = e.db.$client.prepare("SELECT method, count(*) AS n FROM jobs WHERE experiment_id = ? GROUP BY method").all(e.id) as Array<{
      method: string;
      n: number;
    }>;
    const mine = jobs.find((j) => j.method === "Mine")!.n;
    const total = jobs.reduce((s, j) => s + j.n, 0);
    // The dialogue's pairwise judging of the two methods is a job of its own, built on both outputs.
    expect(jobs.some((j) => j.method.includes("~"))).toBe(true);

    const r = await verifyBundle(file, { dataFrom: e.db });
    expect(r.notReplayed).toEqual([{ method: "mine", label: "Mine", jobs: mine, failed: 0 }]);
    expect(r.different).toEqual([]);
    expect(r.requests).toBe(0);
    expect(r.jobs).toBe(total - mine);
    expect(r.identical).toBe(total - mine);
    expect(r.tables.identical).toBe(true);
    expect(r.ok).toBe(true);
    expect(env.svc.requests.length).toBe(sent);

    const cli = await runPal(e.file, CLOSED, ["bundle", "verify", file]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`needs the external service mine (not replayed): ${mine} jobs of Mine`);
    expect(cli.stdout).toMatch(/verified: every replayable number replayed identically .*jobs of external methods not replayed/);
    expect(cli.stdout).not.toMatch(/NOT verified|failed in the replay/);
    fs.rmSync(file, { force: true });
  }, 180_000);
});
