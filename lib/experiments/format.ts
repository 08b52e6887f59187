/** Plain-text renderings of results and dry runs (the CLI prints these; the page has its own table). */
import type { BuildRow, DryRunResult, DryRunRow, TokenBasis } from "./dry-run";
import type { ExperimentResults, Ledger } from "./results";
import type { Progress } from "./progress";
import { activityText } from "./activity-text";

const fmt = (v: number | null | undefined, d = 2) => (typeof v === "number" ? v.toFixed(d) : "—");

const span = (r: { min: number; max: number } | null | undefined) => (!r ? "?" : r.min === r.max ? String(r.min) : `${r.min}–${r.max}`);

/** The memory-building rows: calls per role (min–max where the count depends on model answers). */
function buildLines(builds: BuildRow[], d: Pick<DryRunResult, "withBuilds" | "buildTokenBasis">): string[] {
  if (!builds.length) return [];
  const roles = [...new Set(builds.flatMap((b) => Object.keys(b.calls ?? {})))].sort();
  const lines = [
    "",
    ["method", "memory build", "users (built)", ...roles, "calls", "prompt tokens", "completion tokens", "note"].join("\t"),
  ];
  for (const b of builds) {
    lines.push(
      [
        b.method,
        b.calls === null ? "no estimate" : b.exact ? "exact" : "estimate",
        `${b.users} (${b.usersBuilt})`,
        ...roles.map((r) => (b.calls ? span(b.calls[r] ?? { min: 0, max: 0 }) : "?")),
        span(b.total),
        span(b.promptTokens),
        span(b.completionTokens),
        b.note ?? "",
      ].join("\t"),
    );
  }
  lines.push(
    `total with memory building: ${span(d.withBuilds.calls)} calls, ${span(d.withBuilds.promptTokens)} prompt + ${span(d.withBuilds.completionTokens)} completion tokens`,
  );
  const measured = Object.entries(d.buildTokenBasis).map(([role, b]) => `${role} ${b.prompt}+${b.completion} (over ${b.calls} calls)`);
  lines.push(`build tokens per call: ${measured.length ? `measured for ${measured.join(", ")}; ` : ""}a guess otherwise`);
  return lines;
}

export function dryRunTable(
  rows: DryRunRow[],
  total: DryRunRow,
  basis: TokenBasis = {},
  builds?: Pick<DryRunResult, "builds" | "withBuilds" | "buildTokenBasis"> & Partial<Pick<DryRunResult, "worstCase" | "limits">>,
): string {
  const lines = ["method\ttask\titems\tassistant\tuser-simulator\tjudge\tcalls\tprompt tokens\tcompletion tokens"];
  for (const r of [...rows, total]) {
    lines.push(
      [
        r.method,
        r.task,
        r.items,
        r.calls.assistant,
        r.calls["user-simulator"],
        r.calls.judge,
        r.calls.total,
        r.promptTokens,
        r.completionTokens,
      ].join("\t"),
    );
  }
  const measured = Object.entries(basis).map(([role, b]) => `${role} ${b.prompt}+${b.completion} (over ${b.calls} calls)`);
  lines.push(`tokens per call: ${measured.length ? `measured for ${measured.join(", ")}; ` : ""}the tasks' own guesses otherwise`);
  if (builds) lines.push(...buildLines(builds.builds, builds));
  if (builds?.worstCase) lines.push(worstCaseLine(builds.worstCase));
  const l = builds?.limits;
  if (l) {
    lines.push(
      `limits: ${l.jobs} jobs of max ${l.max.maxJobs}, ${l.methods} methods of max ${l.max.maxMethods}, ${l.repeats} repeats of max ${l.max.maxRepeats}`,
    );
    for (const o of l.over) lines.push(`over the limit: ${o} (an admin raises it on Admin → Settings; pal run --over-limit skips it)`);
  }
  return lines.join("\n") + "\n";
}

/** What a run could pay if every reply were invalid, and where the spend guard stops it. */
export function worstCaseLine(w: DryRunResult["worstCase"]): string {
  return `worst case (every reply invalid): ${w.attempts} paid attempts (${w.triesPerCall} tries per call × ${w.jobAttempts} job attempts); the spend guard pauses a run whose first ${w.guardProbe} attempts all fail`;
}

export function resultsTable(res: ExperimentResults): string {
  const out: string[] = [];
  const tasks = [...new Set(res.summary.map((s) => s.task))];
  for (const task of tasks) {
    const rows = res.summary.filter((s) => s.task === task);
    // Every method's metrics, in order of first appearance: not all methods have all (retrieval scores
    // are for methods that retrieve; a LongMemEval run's types are those its questions have).
    const metrics = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
    if (!metrics.length) continue;
    out.push(`# ${task} (mean ± sd over runs; p: paired t-test vs ${res.reference})`);
    out.push(["method", "runs", ...metrics].join("\t"));
    for (const r of rows) {
      out.push(
        [
          r.method,
          r.runs,
          ...metrics.map((m) => {
            const x = r.metrics[m];
            if (!x) return "—";
            return `${fmt(x.mean)}${x.sd !== null ? ` ± ${fmt(x.sd)}` : ""}${x.p !== null ? ` (p=${fmt(x.p, 3)})` : ""}`;
          }),
        ].join("\t"),
      );
    }
    out.push("");
  }
  if (res.pairwise.length) {
    out.push(
      "# dialogue (Win/Tie/Lose of a vs b per run: mean ± sd over runs, W+T+L = the topics of one run; p: sign test, the largest of the runs)",
    );
    out.push("a\tb\tdimension\twin\ttie\tlose\ttopics\truns\tp\tper run (W/T/L)");
    // One run: the counts themselves; several: the mean ± sd.
    const c = (m: number, sd: number | undefined) => (sd === undefined ? String(m) : `${fmt(m)} ± ${fmt(sd)}`);
    for (const p of res.pairwise)
      out.push(
        [
          p.a,
          p.b,
          p.dimension,
          c(p.win, p.sd?.win),
          c(p.tie, p.sd?.tie),
          c(p.lose, p.sd?.lose),
          p.topics,
          p.runs,
          fmt(p.p, 3),
          p.perRun.map((r) => `${r.win}/${r.tie}/${r.lose}`).join(", "),
        ].join("\t"),
      );
    out.push("");
  }
  out.push(
    `ledger: ${res.ledger.calls} calls, ${res.ledger.cacheHits} cache hits, ${res.ledger.promptTokens} prompt + ${res.ledger.completionTokens} completion tokens` +
      (res.ledger.usageUnknown + res.memoryBuild.usageUnknown > 0
        ? ` (${res.ledger.usageUnknown + res.memoryBuild.usageUnknown} requests with unknown usage: timed out, dropped, or the usage reported was not believed)`
        : "") +
      (res.ledger.cutOff ? `, ${res.ledger.cutOff} replies cut off at max_tokens` : ""),
  );
  const line = (l: Ledger) =>
    `${l.calls}\t${l.cacheHits}\t${l.promptTokens}\t${l.completionTokens}\t${typeof l.cost === "number" ? l.cost.toFixed(4) : "—"}`;
  const methods = [...new Set([...Object.keys(res.ledgerByMethod), ...Object.keys(res.memoryBuildByMethod)])];
  if (methods.length) {
    out.push("", "# ledger per method (answering, and building the memory it answered from)");
    out.push("method\tpart\tcalls\tcache hits\tprompt tokens\tcompletion tokens\tcost (USD)");
    for (const m of methods) {
      if (res.ledgerByMethod[m]) out.push(`${m}\tanswering\t${line(res.ledgerByMethod[m])}`);
      if (res.memoryBuildByMethod[m]) out.push(`${m}\tmemory build\t${line(res.memoryBuildByMethod[m])}`);
    }
    out.push(`memory build (each version once)\t\t${line(res.memoryBuild)}`);
  }
  return out.join("\n") + "\n";
}

export function progressLine(p: Progress): string {
  const width = 30;
  const filled = Math.round(p.fraction * width);
  const eta = p.etaMs === null ? "?" : `${Math.ceil(p.etaMs / 1000)}s`;
  const activity = activityText(p.inFlight);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.done + p.failed + p.skipped}/${p.total} done=${p.done} failed=${p.failed} running=${p.running} eta=${eta}${activity ? ` · ${activity}` : ""}`;
}
