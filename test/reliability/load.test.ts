/**
 * Reliability check 4, short form: 50 browsing + 20 annotating clients for 10 s against `next start`,
 * zero errors, with the p95 of pages and submits printed beside GET /api/me of the same run. The full
 * 60 s run is `npm run bench load` (bench/load.bench.ts).
 */
import { describe, expect, it } from "vitest";
import { runLoad } from "./load";

describe("load", () => {
  it("serves 50 browsing and 20 annotating clients for 10 s without an error", async () => {
    const r = await runLoad({ browsers: 50, annotators: 20, seconds: 10 });
    console.log(r.report.join("\n"));
    expect(r.errors.slice(0, 5)).toEqual([]);
    // Every client got through at least once (how many more depends on the machine's load).
    expect(r.pages.length).toBeGreaterThanOrEqual(50);
    expect(r.submits.length).toBeGreaterThanOrEqual(20);
    expect(r.me.length).toBeGreaterThan(0);
    expect(r.labels).toBeGreaterThan(0);
  });
});
