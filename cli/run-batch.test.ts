/**
 * `pal run --batch-judge`: the judge calls go through the Batch API of the TEST DOUBLE; the command
 * waits, polling, prints each batch's state, and its results equal an online run's. A run killed while
 * its batch is held is resumed with `--resume ID --cancel-batch`: the batch is cancelled and the items
 * are judged online, with the same results.
 */
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";

const pal = (dbFile: string, baseURL: string, args: string[], killWhen?: () => boolean) => runPal(dbFile, baseURL, args, { killWhen });

const RUN = oneRun("vanilla,vanilla-log", "requirement", "--users", "0000,0001", "--json");
type Out = { experiment: { id: number }; results: unknown };

describe("pal run --batch-judge", () => {
  const s = palRunSetup(3);

  it("waits for its judge batch, shows its state, and gives the online run's results; a cancelled batch is judged online", async () => {
    const online = await pal(s.dbs[0].file, s.fake.baseURL, RUN);
    expect(online.code, online.stderr).toBe(0);
    const expected = (JSON.parse(online.stdout) as Out).results;

    const batched = await pal(s.dbs[1].file, s.fake.baseURL, [...RUN, "--batch-judge", "--poll-seconds", "1"]);
    expect(batched.code, batched.stderr).toBe(0);
    expect(batched.stderr).toMatch(/judge batch \d+: (validating|in progress|completed|ingested) \(\d+\/\d+ answered\)/);
    expect((JSON.parse(batched.stdout) as Out).results).toEqual(expected);
    const watch1 = new Database(s.dbs[1].file, { readonly: true });
    expect(watch1.prepare("SELECT status FROM llm_batches").all()).toEqual([{ status: "ingested" }]);
    watch1.close();

    // Killed while its batch is held; resumed with --cancel-batch: judged online.
    s.fake.batch.hold(true);
    const watch = new Database(s.dbs[2].file, { readonly: true });
    const killed = await pal(s.dbs[2].file, s.fake.baseURL, [...RUN, "--batch-judge", "--poll-seconds", "1"], () => {
      try {
        return !!watch.prepare("SELECT 1 FROM llm_batches WHERE remote_id IS NOT NULL").get();
      } catch {
        return false; // not migrated yet
      }
    });
    expect(killed.code).toBeNull();
    const id = (watch.prepare("SELECT id FROM experiments").get() as { id: number }).id;
    const resumed = await pal(s.dbs[2].file, s.fake.baseURL, ["run", "--resume", String(id), "--cancel-batch", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/batch \d+ \(batch-\d+\) cancelled/);
    expect((JSON.parse(resumed.stdout) as Out).results).toEqual(expected);
    expect(watch.prepare("SELECT status FROM llm_batches").all()).toEqual([{ status: "cancelled" }]);
    watch.close();
    s.fake.batch.hold(false);
  }, 180_000);
});
