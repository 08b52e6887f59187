/**
 * `pal run` with stderr piped (as into a log file): progress at most every 5 s and once at the end, not a
 * line per job; and `pal run --resume ID --retry-failed` runs the failed items again, as the experiment
 * page's Retry failed does (a plain --resume leaves them failed).
 */
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";
import { experimentReplies } from "@/test/experiment-replies";
import type { ChatRequest } from "@/test/fake-openai";

const PROGRESS = /^\[[#-]{30}\] (\d+)\/(\d+) done=/;
const progressLines = (stderr: string) => stderr.split("\n").filter((l) => PROGRESS.test(l));

function counts(file: string) {
  const d = new Database(file, { readonly: true });
  const rows = d.prepare("SELECT status, count(*) AS n FROM jobs GROUP BY status").all() as Array<{ status: string; n: number }>;
  d.close();
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
}

describe("pal run: progress into a pipe, and --retry-failed", () => {
  const s = palRunSetup(2, { latencyMs: 60 });

  it("writes progress at most every 5 s and at the end when stderr is not a terminal", async () => {
    const t0 = Date.now();
    const r = await runPal(
      s.dbs[0].file,
      s.fake.baseURL,
      oneRun("vanilla,vanilla-log", "requirement,solution", "--concurrency", "2", "--json"),
    );
    const elapsed = Date.now() - t0;
    expect(r.code, r.stderr).toBe(0);
    const jobs = counts(s.dbs[0].file).done;
    const lines = progressLines(r.stderr);
    // Before: one line per job.
    expect(jobs).toBeGreaterThan(8);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 5000));
    expect(lines.length).toBeLessThan(jobs);
    // The last line is the end: everything finished.
    const [, finished, total] = lines.at(-1)!.match(PROGRESS)!;
    expect(Number(finished)).toBe(jobs);
    expect(Number(total)).toBe(jobs);
    expect(r.stderr).not.toContain("\r");
  });

  it("--resume ID --retry-failed runs the failed items again; --resume alone does not", async () => {
    const file = s.dbs[1].file;
    // The endpoint refuses the first two solution requests outright (HTTP 400: no retry): two items fail.
    let refused = 0;
    const normal = experimentReplies();
    s.fake.setResponder((req: ChatRequest) => {
      const text = JSON.stringify(req.messages[0]?.content ?? "");
      if (text.includes('{\\"solution\\": \\"...\\"}') && refused < 2) {
        refused++;
        return { kind: "status", status: 400, message: "refused for the test" };
      }
      return normal(req);
    });
    const args = oneRun("vanilla", "solution", "--json");
    const first = await runPal(file, s.fake.baseURL, args);
    expect(first.code, first.stderr).toBe(3);
    expect(refused).toBe(2);
    expect(JSON.parse(first.stdout).failed).toBe(2);
    expect(counts(file).failed).toBe(2);

    const plain = await runPal(file, s.fake.baseURL, ["run", "--resume", "1", "--json"]);
    expect(plain.code).toBe(3);
    expect(JSON.parse(plain.stdout).failed).toBe(2);

    const before = s.fake.chatRequests.length;
    const retried = await runPal(file, s.fake.baseURL, ["run", "--resume", "1", "--retry-failed", "--json"]);
    expect(retried.code, retried.stderr).toBe(0);
    const out = JSON.parse(retried.stdout);
    expect(out.failed).toBe(0);
    expect(out.statusText).toBe("done");
    expect(counts(file).failed ?? 0).toBe(0);
    // Only the two failed items were asked again (each: a solution, then a selection asked twice).
    const again = s.fake.chatRequests.slice(before);
    expect(again.filter((q) => JSON.stringify(q.messages[0]?.content ?? "").includes('{\\"solution\\": \\"...\\"}')).length).toBe(2);
    expect(out.results[0].failed).toBe(0);
    expect(typeof out.results[0].metrics.selection).toBe("number");

    const bad = await runPal(file, s.fake.baseURL, ["run", "--dataset", "en", "--retry-failed"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--retry-failed needs --resume ID");
  });
});
