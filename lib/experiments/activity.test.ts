import { afterAll, afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { experiments, datasets } from "@/db/schema";
import { clearActivity, readActivity, writeActivity } from "./activity";
import { activityText } from "./activity-text";
import { experimentProgress } from "./progress";
import { progressLine } from "./format";

describe("run activity: requests in flight, over the processes running an experiment", () => {
  const t = tempDb();
  afterEach(() => t.db.$client.exec("DELETE FROM run_activity"));
  afterAll(() => t.cleanup());

  it("sums the live processes, leaves out a process gone quiet, and reads in the progress line", () => {
    const ds = t.db.insert(datasets).values({ name: "d", kind: "palset", language: "en" }).returning().get();
    const e = t.db
      .insert(experiments)
      .values({ name: "e", datasetId: ds.id, datasetHash: "h", config: {}, configHash: "c", status: "running" })
      .returning()
      .get();
    const now = 1_000_000;
    expect(readActivity(t.db, e.id, now)).toBeNull();
    writeActivity(t.db, e.id, "cli", { calls: 2, oldestStartedAt: now - 95_000, timeouts: 1 }, now - 1000);
    writeActivity(t.db, e.id, "server", { calls: 1, oldestStartedAt: now - 5000, timeouts: 0 }, now);
    writeActivity(t.db, e.id, "dead", { calls: 7, oldestStartedAt: now - 900_000, timeouts: 3 }, now - 60_000);
    const a = readActivity(t.db, e.id, now);
    expect(a).toEqual({ processes: 2, calls: 3, oldestMs: 95_000, timeouts: 1 });
    expect(activityText(a)).toBe("2 processes · 3 calls in flight, the oldest for 95 s · 1 timed out");
    clearActivity(t.db, e.id, "cli");
    expect(activityText(readActivity(t.db, e.id, now))).toBe("1 call in flight, the oldest for 5 s");
    writeActivity(t.db, e.id, "server", { calls: 0, oldestStartedAt: null, timeouts: 0 });
    const p = experimentProgress(t.db, e.id);
    expect(p.inFlight).toEqual({ processes: 1, calls: 0, oldestMs: null, timeouts: 0 });
    expect(progressLine(p)).toMatch(/ · no call in flight$/);
  });
});
