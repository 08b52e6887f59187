/** The protocol audit's shape and its words (protocol-audit.ts computes it; the page, the CLI and the run card show it). */

/** What was sent that the run did not ask for: an unintended difference. */
export type AuditMismatch = {
  /** "temperature", "output budget", "cut-off replies", "parameter <name>", "retrieval", "retrieval k", "repeats". */
  check: string;
  /** The role or the method the mismatch is about. */
  subject: string;
  declared: string;
  found: string;
  /** How many calls (or jobs, for k; replicates, for repeats) differ, of how many checked. */
  count: number;
  of: number;
};

/**
 * What the run asked for that the paper's protocol (the preset) does not do: an intended difference,
 * declared in the run's config. `of` 0: a setting no call shows (users, tasks, methods...).
 */
export type AuditDeviation = {
  check: string;
  subject: string;
  /** The preset's value, in words. */
  preset: string;
  /** The run's value, in words. */
  declared: string;
  /** Calls (jobs, replicates) that carried the run's value, of how many checked. */
  count: number;
  of: number;
};

export type ProtocolAudit = {
  at: number;
  /** Ledger rows checked: requests sent plus cache hits. */
  calls: number;
  /** Requests sent to an endpoint (tries included) and cache hits, apart. */
  requests?: number;
  hits?: number;
  /** No unintended mismatch: every call as the run's config declares (deviations from the preset aside). */
  asDeclared: boolean;
  mismatches: AuditMismatch[];
  /** The preset the run is compared with (its own, else its data set kind's); null: none (no paper to compare with). */
  preset?: string | null;
  /** Intended differences from that preset, each checked against the calls where a call shows it. */
  deviations?: AuditDeviation[];
  /** What makes the run's results not the paper's beyond its config (a bare dialogue simulator: item 14). */
  warnings?: string[];
  /** What was checked, in words, so "as declared" says what it covers. */
  checked: string[];
  /** Requests re-asked with a larger budget after a reply was cut off (the cut-off rule "re-ask"). */
  regrown: number;
  /** Replies cut off at their budget and kept as returned (the cut-off rule "as-returned"). */
  keptAsReturned?: number;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "checked 12 requests sent and 3 cache hits" (an audit stored before the split says "N calls checked"). */
export function callsText(a: ProtocolAudit): string {
  if (a.requests === undefined || a.hits === undefined) return `${plural(a.calls, "call")} checked`;
  return `checked ${plural(a.requests, "request")} sent and ${plural(a.hits, "cache hit")}`;
}

/** The verdict alone: "as declared, 1 intended deviation from the mem-pal preset", or the count of mismatches. */
export function auditVerdict(a: ProtocolAudit): string {
  const dev = a.deviations ?? [];
  const devText = a.preset
    ? dev.length
      ? `${plural(dev.length, "intended deviation")} from the ${a.preset} preset`
      : `the ${a.preset} preset, no deviation`
    : "";
  if (!a.asDeclared)
    return `${plural(a.mismatches.length, "unintended mismatch", "unintended mismatches")}${devText ? `; ${devText}` : ""}`;
  return `as declared${devText ? `, ${devText}` : ""}`;
}

/** One paragraph: the verdict, each mismatch and each deviation, and what was counted. */
export function auditText(a: ProtocolAudit): string {
  const parts = [`protocol: ${auditVerdict(a)} (${callsText(a)})`];
  if (a.mismatches.length) parts.push(`mismatches: ${a.mismatches.map(mismatchText).join("; ")}`);
  if (a.deviations?.length) parts.push(`deviations: ${a.deviations.map(deviationText).join("; ")}`);
  for (const w of a.warnings ?? []) parts.push(`warning: ${w}`);
  return parts.join(". ");
}

export function mismatchText(m: AuditMismatch): string {
  const share = m.of ? ` on ${m.count} of ${m.of}` : "";
  return `${m.subject} ${m.check}: declared ${m.declared}, sent ${m.found}${share}`;
}

export function deviationText(d: AuditDeviation): string {
  const what = d.check === "setting" || d.subject === "run" ? (d.check === "setting" ? d.subject : d.check) : `${d.subject} ${d.check}`;
  // Calls carry a temperature or a budget; for the rest (k, retrieval, repeats) the count is of jobs or replicates.
  const share = d.of && /temperature|budget/.test(d.check) ? `, sent on ${d.count} of ${d.of} calls` : "";
  return `${what}: ${d.declared} (preset: ${d.preset})${share}`;
}

/** The audit as lines for a terminal or a card: the verdict, then mismatches, deviations and warnings, one a line, apart. */
export function auditLines(a: ProtocolAudit): string[] {
  return [
    `protocol: ${auditVerdict(a)} (${callsText(a)})`,
    ...a.mismatches.map((m) => `  unintended mismatch: ${mismatchText(m)}`),
    ...(a.deviations ?? []).map((d) => `  intended deviation: ${deviationText(d)}`),
    ...(a.warnings ?? []).map((w) => `  warning: ${w}`),
  ];
}
