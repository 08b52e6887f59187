// Adds up the vitest, Playwright, reliability and real-server (vitest) JSON reports into one closing line: "N passed, N failed".
// A report that is missing (the stage did not even run) counts as one failure. The failed tests are named above
// that line, so the tail of a CI log says what failed without scrolling back through four stages.
import fs from "node:fs";
import path from "node:path";

const failedNames = [];
const flakyNames = []; // browser tests that failed once and passed on their retry (CI only)
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
    for (const f of v.testResults ?? []) {
      const where = path.relative(process.cwd(), f.name ?? "");
      const bad = (f.assertionResults ?? []).filter((a) => a.status === "failed");
      for (const a of bad) failedNames.push(`${where} > ${a.fullName ?? a.title}`);
      if (!bad.length && f.status === "failed") failedNames.push(`${where} (did not load: ${(f.message ?? "").split("\n")[0]})`);
    }
  } else {
    failed += 1; // the run did not even report
    failedNames.push(`${file}: no report (the stage did not run)`);
  }
}

const p = read(playwrightFile);
if (p) {
  passed += p.stats.expected;
  failed += p.stats.unexpected;
  passed += p.stats.flaky; // passed on retry
  skipped += p.stats.skipped;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected") failedNames.push(`${spec.file ?? file} > ${spec.title} (${t.projectName || "chromium"})`);
        else if (t.status === "flaky") flakyNames.push(`${spec.file ?? file} > ${spec.title}`);
    for (const s of suite.suites ?? []) walk(s, suite.file ?? file);
  };
  for (const s of p.suites ?? []) walk(s, s.file);
} else {
  failed += 1;
  failedNames.push("playwright: no report (the stage did not run)");
}

const checks = (process.env.SUITE_FAILED_CHECKS ?? "").split(" ").filter(Boolean);
const checkLine = checks.length ? `; failed checks: ${checks.join(", ")}` : "";
if (flakyNames.length) console.log(`flaky (passed on retry):\n${flakyNames.map((n) => `  - ${n}`).join("\n")}`);
if (failedNames.length) console.log(`failed:\n${failedNames.map((n) => `  - ${n}`).join("\n")}`);
console.log(
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${flakyNames.length ? `, ${flakyNames.length} flaky` : ""}${checkLine}`,
);
process.exit(failed || checks.length ? 1 : 0);
