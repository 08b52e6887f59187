/**
 * `npm run bench load`: 50 browsing + 20 annotating clients for 60 s against `next start` (the scenario
 * of test/reliability/load.ts; the reliability suite runs it for 10 s). Fails on any error; prints the
 * p50/p95 of page loads and label submits beside GET /api/me measured under the same load.
 */
import { runLoad } from "../test/reliability/load";

export default async function bench() {
  const r = await runLoad({ browsers: 50, annotators: 20, seconds: Number(process.env.PAL_LOAD_SECONDS) || 60 });
  for (const l of r.report) console.log(l);
  if (r.errors.length) throw new Error(`${r.errors.length} requests failed, e.g. ${r.errors.slice(0, 3).join("; ")}`);
}
