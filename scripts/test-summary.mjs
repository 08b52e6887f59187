// Adds up the vitest, Playwright, reliability and real-server (vitest) JSON reports into one closing line: "N passed, N failed".
// A report that is missing (the stage did not even run) counts as one failure.
import fs from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0;
const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);
const [vitestFile, playwrightFile, ...moreVitest] = process.argv.slice(2);

for (const file of [vitestFile, ...moreVitest]) {
  const v = read(file);
  if (v) {
    passed += v.numPassedTests;
    failed += v.numFailedTests;
    // a file that fails to load has no failed test of its own but must still count
    if (!v.success && !v.numFailedTests) failed += v.numFailedTestSuites || 1;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } else failed += 1; // the run did not even report
}

const p = read(playwrightFile);
if (p) {
  passed += p.stats.expected;
  failed += p.stats.unexpected;
  passed += p.stats.flaky; // passed on retry
  skipped += p.stats.skipped;
} else failed += 1;

const checks = (process.env.SUITE_FAILED_CHECKS ?? "").split(" ").filter(Boolean);
const checkLine = checks.length ? `; failed checks: ${checks.join(", ")}` : "";
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${checkLine}`);
process.exit(failed || checks.length ? 1 : 0);
