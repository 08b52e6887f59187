/**
 * `npm run bench agreement`: the agreement report of issue 23's campaign size (30 raters × 2,000 items ×
 * 2 labels an item, ordinal 1–3, 1,000 bootstrap resamples).
 *
 * 1. The report (lib/agreement/report.ts) against the reference bootstrap it replaced
 *    (test/agreement-reference.ts: every statistic recomputed on every resample of all items), the
 *    reference timed on 2 resamples and scaled to 1,000 (its cost is linear in resamples); the report's
 *    point estimates alone are the baseline of the ratios.
 * 2. The same report run in slices as the server does (runStepsAsync): its longest slice, i.e. the longest
 *    the event loop waits for it.
 * 3. The campaign's report computed into the cache (lib/annotation/agreement-cache.ts) from a real
 *    database, then the campaign page's and the dashboard's data functions with the cache warm.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { agreementReport, agreementReportSteps, runStepsAsync } from "@/lib/agreement";
import { agreementSnapshot, computeAgreement } from "@/lib/annotation/agreement-cache";
import { agreementDashboard, dashboardFilters } from "@/lib/annotation/agreement-dashboard";
import {
  annotatorProgress,
  campaignDimensionsOf,
  campaignSystemsOf,
  getCampaign,
  itemsOverview,
  kindDef,
  listCampaigns,
} from "@/lib/annotation";
import { judgeRunsOf } from "@/lib/annotation/human-labels";
import { generateRatings, referenceBootstrap } from "@/test/agreement-reference";
import { seedRatingCampaign } from "@/test/big-campaign";

const RATERS = Array.from({ length: 30 }, (_, i) => `r${String(i).padStart(2, "0")}`);
const ITEMS = 2000;
const ITERATIONS = 1000;

function time<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: performance.now() - t0, value };
}
const best = (runs: number, f: () => unknown) => Math.min(...Array.from({ length: runs }, () => time(f).ms));
/** CPU time of the process (user + system), ms: steadier than wall time on a shared, loaded machine. */
function cpu(f: () => unknown): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

export default async function bench() {
  const items = generateRatings(ITEMS, RATERS, 2, 7);
  const input = { scale: "ordinal" as const, categories: [1, 2, 3], items };
  const point = best(3, () => agreementReport(input));
  const fast = best(3, () => agreementReport(input, { bootstrap: { iterations: ITERATIONS, seed: 1 } }));
  const fastCpu = Math.min(
    cpu(() => agreementReport(input, { bootstrap: { iterations: ITERATIONS, seed: 1 } })),
    cpu(() => agreementReport(input, { bootstrap: { iterations: ITERATIONS, seed: 1 } })),
  );
  const ref2 = time(() => referenceBootstrap(items, RATERS, [1, 2, 3], 2, ["none", "linear", "quadratic"])).ms;
  const refScaled = (ref2 / 2) * ITERATIONS;
  console.log(`${RATERS.length} raters × ${ITEMS} items × 2 labels, ordinal 1–3, ${ITERATIONS} resamples (best of 3):`);
  console.log(`  point estimates only (baseline)      ${point.toFixed(1).padStart(9)} ms  1.00×`);
  console.log(
    `  report with bootstrap                ${fast.toFixed(1).padStart(9)} ms  ${(fast / point).toFixed(1)}× baseline  (target ≤ 2,000 ms)`,
  );
  console.log(
    `  report with bootstrap, CPU time         ${fastCpu.toFixed(1).padStart(9)} ms  (load average now ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
  );
  console.log(
    `  reference bootstrap (2 → ${ITERATIONS} scaled) ${(refScaled / 1000).toFixed(1).padStart(7)} s    ${(refScaled / point).toFixed(0)}× baseline; the report is ${(refScaled / fast).toFixed(0)}× faster`,
  );

  // As the server runs it: slices of ~8 ms with the event loop served in between.
  let longest = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const sliced = performance.now();
  await runStepsAsync(agreementReportSteps(input, { bootstrap: { iterations: ITERATIONS, seed: 1 } }));
  clearInterval(tick);
  console.log(
    `  in slices (server): ${(performance.now() - sliced).toFixed(0)} ms wall, the event loop waited at most ${longest.toFixed(1)} ms at a time`,
  );

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-agreement-"));
  try {
    const db = openDb(path.join(dir, "bench.db"));
    const seeded = await seedRatingCampaign(db, {
      items: ITEMS,
      annotators: 30,
      perItem: 2,
      labelledShare: 1,
      researchers: 1,
      password: "bench-password-1",
    });
    const id = seeded.campaignId;
    const cold = time(() => computeAgreement(db, id));
    await cold.value;
    const computed = performance.now();
    await computeAgreement(db, id);
    const computeMs = performance.now() - computed;
    // The campaign page's data functions (app/(app)/campaigns/[campaignId]/page.tsx), the agreement from the cache.
    const page = () => {
      const c = getCampaign(db, id);
      kindDef(c.kind);
      campaignSystemsOf(db, id);
      judgeRunsOf(db, id);
      annotatorProgress(db, id);
      agreementSnapshot(db, id);
      itemsOverview(db, id, {});
      campaignDimensionsOf(db, id);
    };
    const warm = best(5, page);
    const snapshotOnly = best(5, () => agreementSnapshot(db, id));
    const dashboard = best(5, () => agreementDashboard(db, dashboardFilters({})));
    const progress = best(5, () => listCampaigns(db));
    console.log(`campaign in a database: ${seeded.labelled} labels, ${ITERATIONS} resamples`);
    console.log(`  report computed into the cache (background) ${computeMs.toFixed(0).padStart(6)} ms`);
    console.log(
      `  campaign page data, warm cache              ${warm.toFixed(1).padStart(6)} ms  (${(warm / computeMs).toFixed(3)}× the computation; target ≤ 200 ms)`,
    );
    console.log(`    of which the cached report                ${snapshotOnly.toFixed(2).padStart(6)} ms`);
    console.log(
      `  dashboard data, warm cache                  ${dashboard.toFixed(1).padStart(6)} ms  (${(dashboard / progress).toFixed(1)}× listCampaigns alone)`,
    );
    db.$client.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
