/** The protocol audit's shape and its words (protocol-audit.ts computes it; the page and the CLI show it). */

export type AuditMismatch = {
  /** "temperature", "output budget", "retrieval", "retrieval k", "repeats". */
  check: string;
  /** The role or the method the mismatch is about. */
  subject: string;
  declared: string;
  found: string;
  /** How many calls (or jobs, for k; replicates, for repeats) differ, of how many checked. */
  count: number;
  of: number;
};

export type ProtocolAudit = {
  at: number;
  /** Ledger rows checked (cache hits included). */
  calls: number;
  asDeclared: boolean;
  mismatches: AuditMismatch[];
  /** What was checked, in words, so "as declared" says what it covers. */
  checked: string[];
  /** Requests re-asked with a larger budget after a reply was cut off (not a mismatch: the client's rule). */
  regrown: number;
};

/** One line: "protocol: as declared", or each mismatch with its counts. */
export function auditText(a: ProtocolAudit): string {
  if (a.asDeclared) return `protocol: as declared (${a.calls} calls checked)`;
  return `protocol: ${a.mismatches.length} mismatch${a.mismatches.length > 1 ? "es" : ""}: ${a.mismatches.map(mismatchText).join("; ")}`;
}

export function mismatchText(m: AuditMismatch): string {
  const share = m.of ? ` on ${m.count} of ${m.of}` : "";
  return `${m.subject} ${m.check}: declared ${m.declared}, sent ${m.found}${share}`;
}
