/**
 * `npm run bench agreement-load`: issue 23.1's load (test/agreement-load.ts) timed, as ratios measured in this run.
 * Targets (issue 40.16): label submits' p95 while 5 PIs reload the campaign page and /agreement ≤ 500 ms, or within
 * 3× the same submits without PIs; the campaign page and /agreement under that load within 3× their warm,
 * unloaded time (the PIs' pages add their rendering, never a computation of the report).
 */
import { pct } from "./http-session";
import { describeAgreementLoad, runAgreementLoad } from "../test/agreement-load";
import { tempDir } from "../test/reliability/app";

const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);

export default async function bench() {
  const seconds = { alone: Number(process.env.BENCH_SECONDS_ALONE ?? 10), loaded: Number(process.env.BENCH_SECONDS ?? 20) };
  const tmp = tempDir("bench-agreement-load");
  try {
    const r = await runAgreementLoad(tmp.dir, seconds);
    console.log(describeAgreementLoad(r, seconds));
    const submitP95 = pct(r.submits, 95);
    const aloneP95 = pct(r.alone, 95);
    const pageLoaded = pct(r.pages[r.campaignPage], 50);
    const dashLoaded = pct(r.pages["/agreement"], 50);
    const rows = [
      ["submit p95, with PIs / alone", ratio(submitP95, aloneP95), submitP95 <= 500 || ratio(submitP95, aloneP95) <= 3],
      ["campaign page p50, under load / warm", ratio(pageLoaded, pct(r.warm, 50)), ratio(pageLoaded, pct(r.warm, 50)) <= 3],
      ["/agreement p50, under load / warm", ratio(dashLoaded, pct(r.warmDash, 50)), ratio(dashLoaded, pct(r.warmDash, 50)) <= 3],
    ] as const;
    for (const [name, x, met] of rows) console.log(`${name.padEnd(40)} ${x.toFixed(2)}×  ${met ? "target met" : "TARGET MISSED"} (≤ 3×)`);
    if (r.errors.length) console.log(`errors: ${r.errors.slice(0, 5).join("; ")}`);
  } finally {
    tmp.cleanup();
  }
}
