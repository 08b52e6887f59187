/**
 * A run reaches the model only through handles made from its record (job-model.ts runHandle): the
 * worker's dependencies hand out no raw client, the run's own handle (its judge batches, its activity)
 * carries the run's role parameters, and no module of the experiments engine makes a client of its own
 * except the composition root and the two that only cancel batches or estimate.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { parseExperimentConfig } from "./config";
import { bindDeps } from "./deps";

const env = fakeModelPerTest(() => "fine");

/** Files of lib/experiments that may call ModelClient.create, and why. */
const MAY_CREATE: Record<string, string> = {
  "deps.ts": "the composition root: the one client every handle of a run is made from",
  "service.ts": "cancels and settles judge batches (the Batch API only, no chat call)",
  "dry-run.ts": "estimates a run's calls without making any",
};

describe("the run's model handle", () => {
  it("WorkerDeps has no raw client, and the run's own handle carries the run's role parameters", async () => {
    const { db } = env.db();
    const deps = bindDeps(db);
    expect(Object.keys(deps)).not.toContain("client");
    const config = parseExperimentConfig({
      methods: [{ name: "vanilla" }],
      tasks: ["solution"],
      models: { assistant: { temperature: 0.25 } },
    });
    const handle = deps.runModel(7, config);
    expect(handle.origin).toEqual({ experimentId: 7 });
    await handle.chat({ messages: [{ role: "user", content: "hello" }], purpose: "guard" });
    expect(env.fake.chatRequests.at(-1)?.temperature).toBe(0.25);
  });

  it("no module of the experiments engine makes its own client outside the allowed ones", () => {
    const dir = path.join(__dirname);
    const found = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => /ModelClient\.create\(|deps(\(\))?\.client\b/.test(fs.readFileSync(path.join(dir, f), "utf8")));
    expect(found.filter((f) => !(f in MAY_CREATE))).toEqual([]);
  });
});
