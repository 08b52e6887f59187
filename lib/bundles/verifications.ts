/**
 * Verifying a run of this database (an imported one, from the experiment page's Verify or `pal bundle
 * verify ID`): the run is exported to a temporary bundle (with its data set's rows when a bundle brought
 * them) and that bundle replayed as `pal bundle verify FILE` replays one (./verify.ts); the outcome is
 * kept (experiment_verifications) and shown as a badge on the experiment page and in the run card.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { runLabel } from "@/lib/experiments/run-label";
import { exportBundle } from "./export";
import { verifyBundle, type VerifyReport } from "./verify";

/** The most of each list a stored report keeps (the badge's "list reachable"; the CLI prints them all). */
const KEEP = 200;

export type StoredReport = Pick<
  VerifyReport,
  "different" | "missingReplies" | "requests" | "memory" | "batches" | "tables" | "status" | "ms"
> & {
  /** How many jobs differ in all (`different` keeps the first KEEP). */
  differentCount: number;
};

export type Verification = {
  id: number;
  experimentId: number;
  verifiedAt: number;
  jobs: number;
  identical: number;
  ok: boolean;
  report: StoredReport;
  verifiedBy: number | null;
};

/** Stores `r` as experiment `id`'s latest verification; returns its id. */
export function recordVerification(db: Db, id: number, r: VerifyReport, by: number | null = null): number {
  const report: StoredReport = {
    different: r.different.slice(0, KEEP),
    differentCount: r.different.length,
    missingReplies: r.missingReplies.slice(0, KEEP),
    requests: r.requests,
    memory: { ...r.memory, different: r.memory.different.slice(0, KEEP) },
    batches: { ...r.batches, notAsked: r.batches.notAsked.slice(0, KEEP) },
    tables: r.tables,
    status: r.status,
    ms: r.ms,
  };
  return Number(
    db.$client
      .prepare(
        "INSERT INTO experiment_verifications (experiment_id, verified_at, jobs, identical, ok, report, verified_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(id, Date.now(), r.jobs, r.identical, r.ok ? 1 : 0, JSON.stringify(report), by).lastInsertRowid,
  );
}

/** Experiment `id`'s latest verification, or null (never verified; or a bundle's database, which has no such table). */
export function latestVerification(db: Db, id: number): Verification | null {
  const conn = db.$client;
  if (!conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'experiment_verifications'").get()) return null;
  const r = conn
    .prepare(
      `SELECT id, experiment_id AS experimentId, verified_at AS verifiedAt, jobs, identical, ok, report, verified_by AS verifiedBy
       FROM experiment_verifications WHERE experiment_id = ? ORDER BY verified_at DESC, id DESC LIMIT 1`,
    )
    .get(id) as (Omit<Verification, "ok" | "report"> & { ok: number; report: string }) | undefined;
  return r ? { ...r, ok: r.ok === 1, report: JSON.parse(r.report) as StoredReport } : null;
}

/** What else than the jobs differed, in words (empty: nothing). */
export function otherDifferences(v: Pick<Verification, "report">): string[] {
  const r = v.report;
  return [
    ...(r.requests ? [`${r.requests} request${r.requests === 1 ? "" : "s"} had no bundled reply`] : []),
    ...(r.memory.different.length ? [`memory of ${r.memory.different.length} of ${r.memory.versions} versions differs`] : []),
    ...(r.tables.identical ? [] : ["the paper tables differ"]),
    ...(r.batches.notAsked.length ? [`${r.batches.notAsked.length} judge batch lines were not asked by the replay`] : []),
  ];
}

/** The badge: "verified on 2026-12-05, 12 of 12 identical", or "verified on 2026-12-05: 3 of 12 differ". */
export function badgeText(v: Pick<Verification, "verifiedAt" | "jobs" | "identical" | "ok" | "report">): string {
  const day = new Date(v.verifiedAt).toISOString().slice(0, 10);
  const differ = v.jobs - v.identical;
  if (differ > 0) return `verified on ${day}: ${differ} of ${v.jobs} differ`;
  const other = otherDifferences(v);
  return `verified on ${day}, ${v.identical} of ${v.jobs} identical${other.length ? ` (but ${other.join("; ")})` : ""}`;
}

/** What the page shows of a verification: the badge and the list of what differed. */
export type VerificationView = {
  verifiedAt: number;
  jobs: number;
  identical: number;
  ok: boolean;
  badge: string;
  jobsDiffer: Array<{ job: number; where: string; what: string }>;
  differentCount: number;
  other: string[];
};

export function verificationView(v: Verification): VerificationView {
  return {
    verifiedAt: v.verifiedAt,
    jobs: v.jobs,
    identical: v.identical,
    ok: v.ok,
    badge: badgeText(v),
    jobsDiffer: v.report.different.map((d) => ({
      job: d.job,
      where: `${d.method} / ${d.task} / ${d.item}, ${runLabel(d.replicate)}`,
      what: d.what,
    })),
    differentCount: v.report.differentCount,
    other: otherDifferences(v),
  };
}

export type VerifyStep = (done: number, total: number, step: string) => void;

/**
 * Replays experiment `id` of `db` offline from the replies it holds, as `pal bundle verify` replays a
 * bundle: exported to a temporary file first (the steps say so), then verified. Nothing is recorded here.
 */
export async function verifyExperiment(db: Db, id: number, o: { concurrency?: number; onStep?: VerifyStep } = {}): Promise<VerifyReport> {
  const row = db.$client
    .prepare(
      "SELECT e.id, coalesce(i.dataset_from_bundle, 0) AS brought FROM experiments e LEFT JOIN experiment_imports i ON i.experiment_id = e.id WHERE e.id = ?",
    )
    .get(id) as { id: number; brought: number } | undefined;
  if (!row) throw new NotFoundError(`experiment ${id} does not exist`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-verify-run-"));
  const file = path.join(dir, `experiment-${id}.palbundle`);
  try {
    // Rows a bundle brought are a part of their data set (the users the run read): they travel along, as
    // the hash the run names is the whole data set's (this database holds no copy of it).
    exportBundle(db, id, file, { withData: row.brought === 1, onStep: (d, t, table) => o.onStep?.(d, t, `exporting the run (${table})`) });
    return await verifyBundle(file, { dataFrom: db, concurrency: o.concurrency, onStep: o.onStep });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
