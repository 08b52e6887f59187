/** What the protocol audit collects while it checks (protocol-audit.ts): mismatches and deviations, merged by what they say. */
import type { AuditDeviation, AuditMismatch, ProtocolAudit } from "./protocol-audit-text";

export class AuditLog {
  private readonly mismatches = new Map<string, AuditMismatch>();
  private readonly deviations = new Map<string, AuditDeviation>();
  private readonly done: string[] = [];
  private readonly settings = new Set<string>();
  regrown = 0;
  keptAsReturned = 0;
  readonly warnings: string[] = [];

  checked(what: string): void {
    this.done.push(what);
  }

  /** A setting (as preset-changes names it) that a check compared with the calls: its deviation carries their counts. */
  covered(setting: string): void {
    this.settings.add(setting);
  }

  isCovered(setting: string): boolean {
    return this.settings.has(setting);
  }

  /** Entries saying the same thing (one per ledger group) add up their counts; `of` is the largest seen. */
  mismatch(check: string, subject: string, declared: string, found: string, count: number, of: number): void {
    const key = [check, subject, declared, found].join("\u0000");
    const m = this.mismatches.get(key);
    if (m) {
      m.count += count;
      m.of = Math.max(m.of, of);
    } else this.mismatches.set(key, { check, subject, declared, found, count, of });
  }

  deviation(check: string, subject: string, preset: string, declared: string, count: number, of: number): void {
    const key = [check, subject, preset, declared].join("\u0000");
    const d = this.deviations.get(key);
    if (d) {
      d.count += count;
      d.of = Math.max(d.of, of);
    } else this.deviations.set(key, { check, subject, preset, declared, count, of });
  }

  result(n: { calls: number; requests: number; hits: number; preset: string | null }): ProtocolAudit {
    const mismatches = [...this.mismatches.values()];
    return {
      at: Date.now(),
      ...n,
      asDeclared: mismatches.length === 0,
      mismatches,
      deviations: [...this.deviations.values()],
      warnings: this.warnings,
      checked: this.done,
      regrown: this.regrown,
      keptAsReturned: this.keptAsReturned,
    };
  }
}
