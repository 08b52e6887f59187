/**
 * `pal run --workers 2` (issue 35): two processes share one run's jobs on one database. Both take jobs,
 * no job is run twice (one attempt each), the requests and the results are a one-process run's.
 */
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";
import { experimentReplies } from "@/test/experiment-replies";

const RUN = oneRun("vanilla,vanilla-log", "requirement,solution", "--concurrency", "2", "--json");

describe("pal run --workers", () => {
  const s = palRunSetup(2, { latencyMs: 30 });

  it("shares the jobs between two processes: each job run once, the results of a one-process run", async () => {
    const one = await runPal(s.dbs[0].file, s.fake.baseURL, RUN);
    expect(one.code, one.stderr).toBe(0);
    const sentByOne = s.fake.chatRequests.length;
    // The score judge's request is the same for both methods' identical requirement of an item (one paid,
    // one hit in a one-process run): slowed, and with every job in flight at once, the two processes' jobs
    // of one item ask it at the same time.
    const replies = experimentReplies();
    s.fake.setResponder((r) => {
      const text = replies(r);
      return text.includes('"score"') ? { content: text, delayMs: 1500 } : text;
    });
    const two = await runPal(s.dbs[1].file, s.fake.baseURL, [...RUN, "--workers", "2", "--concurrency", "12"]);
    expect(two.code, two.stderr).toBe(0);
    // The endpoint was asked what the one-process run asked, no request twice (lib/llm/claims.ts).
    expect(s.fake.chatRequests.length - sentByOne).toBe(sentByOne);
    const a = JSON.parse(one.stdout);
    const b = JSON.parse(two.stdout);
    expect(b.status).toBe("done");
    expect(b.results).toEqual(a.results);
    expect(b.summary).toEqual(a.summary);

    const d = new Database(s.dbs[1].file, { readonly: true });
    try {
      const jobs = d.prepare("SELECT status, attempts, worker FROM jobs").all() as Array<{
        status: string;
        attempts: number;
        worker: string;
      }>;
      expect(jobs.length).toBeGreaterThan(4);
      expect(jobs.every((j) => j.status === "done" && j.attempts === 1)).toBe(true);
      // Two processes (host:pid:nonce) took jobs.
      expect(new Set(jobs.map((j) => j.worker.split(":")[1])).size).toBe(2);
      // The same requests as the one-process run, none paid twice: an identical request in flight in the
      // other process is waited for, its reply taken from the cache as a hit (lib/llm/claims.ts).
      const paidTwice = d.prepare(
        "SELECT cache_key FROM llm_calls WHERE cache_hit = 0 AND status = 'ok' GROUP BY cache_key HAVING count(*) > 1",
      );
      expect(paidTwice.all()).toEqual([]);
      const shared = d.prepare("SELECT count(*) FROM llm_calls WHERE cache_hit = 1 AND error = ?").pluck();
      expect(shared.get("shared with another process's identical call")).toBeGreaterThan(0);
      expect(d.prepare("SELECT count(*) FROM llm_claims").pluck().get()).toBe(0);
      const paidKeys = (db: Database.Database) =>
        db.prepare("SELECT DISTINCT cache_key FROM llm_calls WHERE cache_hit = 0 AND status = 'ok' ORDER BY cache_key").pluck().all();
      const d1 = new Database(s.dbs[0].file, { readonly: true });
      expect(paidKeys(d)).toEqual(paidKeys(d1));
      d1.close();
    } finally {
      d.close();
    }
    // A bad worker count is refused, naming the flag.
    const bad = await runPal(s.dbs[1].file, s.fake.baseURL, [...RUN, "--workers", "0"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--workers: 0 is not a whole number of at least 1/);
  }, 180_000);
});
