/**
 * One builder per memory version, across processes (a `pal run` and the server's worker on the same
 * database) and within one (the Memory page and an experiment asking for the same user). The builder
 * holds a lease on the version (memory_versions.builder, lease_until) and renews it while it builds;
 * another builder waits until the lease is released (then finds the sessions built and has nothing
 * to do), and takes the version over once the lease has run out (its builder crashed) or, at once,
 * when the holder was a process of this machine that is gone.
 */
import { holderIsDeadLocal, leaseHolderId } from "@/lib/lease-holder";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";

export type LeaseOptions = {
  /** How long a lease lasts without renewal (default 60 s); it is renewed every third of that. */
  leaseMs?: number;
  /** How often a waiting builder looks again (default 1 s). */
  pollMs?: number;
};

/** One per build of one user, so two builds in one process also exclude each other. */
export const builderId = leaseHolderId;

/** Takes the lease when it is free, ours, expired, or held by a dead local process; false otherwise. */
export function tryClaimVersion(db: Db, versionId: number, builder: string, leaseMs: number, now = Date.now()): boolean {
  return db.$client
    .transaction(() => {
      const row = stmt(db, "SELECT builder, lease_until AS leaseUntil FROM memory_versions WHERE id = ?").get(versionId) as
        { builder: string | null; leaseUntil: number | null } | undefined;
      if (!row) return false;
      const free = row.builder === null || row.builder === builder || (row.leaseUntil ?? 0) < now || holderIsDeadLocal(row.builder);
      if (!free) return false;
      stmt(db, "UPDATE memory_versions SET builder = ?, lease_until = ? WHERE id = ?").run(builder, now + leaseMs, versionId);
      return true;
    })
    .immediate();
}

/** Extends our lease; false when another builder has taken the version over. */
export function renewVersionLease(db: Db, versionId: number, builder: string, leaseMs: number, now = Date.now()): boolean {
  return (
    stmt(db, "UPDATE memory_versions SET lease_until = ? WHERE id = ? AND builder = ?").run(now + leaseMs, versionId, builder).changes === 1
  );
}

export function releaseVersion(db: Db, versionId: number, builder: string): void {
  stmt(db, "UPDATE memory_versions SET builder = NULL, lease_until = NULL WHERE id = ? AND builder = ?").run(versionId, builder);
}

export type VersionLease = {
  /** False once another builder took the version over (this one stalled past its lease): stop building. */
  held(): boolean;
  release(): void;
};

/** The lease, when this builder can take it now (free, ours, expired, or a dead local holder's); null otherwise. */
export function claimVersionNow(db: Db, versionId: number, builder: string, o: LeaseOptions = {}): VersionLease | null {
  const leaseMs = o.leaseMs ?? 60_000;
  if (!tryClaimVersion(db, versionId, builder, leaseMs)) return null;
  let held = true;
  const timer = setInterval(
    () => {
      if (held && !renewVersionLease(db, versionId, builder, leaseMs)) held = false;
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    held: () => held,
    release() {
      clearInterval(timer);
      if (held) releaseVersion(db, versionId, builder);
      held = false;
    },
  };
}

/**
 * Waits until this builder holds the version's lease, then keeps it renewed until release(). While
 * another live builder holds it, this one only polls: it makes no model call and writes nothing.
 */
export async function acquireVersion(
  db: Db,
  versionId: number,
  builder: string,
  o: LeaseOptions = {},
  onWait?: () => void,
): Promise<VersionLease> {
  const pollMs = o.pollMs ?? 1_000;
  let waited = false;
  for (;;) {
    const lease = claimVersionNow(db, versionId, builder, o);
    if (lease) return lease;
    if (!waited) onWait?.();
    waited = true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
