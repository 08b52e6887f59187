/**
 * Session sampling for the data-quality check, as in Mem-PAL: a seeded draw of `users` users and
 * `sessionsPerUser` sessions of each (the paper: 5 × 10). Sessions need logs or turns to be rated.
 */
import { and, asc, eq, or, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { palSamples, palUsers, datasets } from "@/db/schema";
import { mulberry32 } from "@/lib/random";
import { InvalidInputError } from "@/lib/errors";

export interface SessionSampleSpec {
  users: number;
  sessionsPerUser: number;
  seed: number;
}

export const PAPER_SAMPLE: SessionSampleSpec = { users: 5, sessionsPerUser: 10, seed: 1 };

/** Fisher–Yates with the project's seeded PRNG; the input is not modified. */
export function seededShuffle<T>(xs: readonly T[], seed: number): T[] {
  const rand = mulberry32(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * What a draw made when it made fewer items than asked, and why (a data set with fewer users, or users
 * with fewer sessions to rate): "5 users × 10 sessions" on a 3 × 7 data set says it made 21, not 50.
 */
export function sampleShortfall(spec: SessionSampleSpec, drawn: ReadonlyArray<{ userKey: string }>): string | null {
  const asked = spec.users * spec.sessionsPerUser;
  if (drawn.length >= asked) return null;
  const perUser = new Map<string, number>();
  for (const d of drawn) perUser.set(d.userKey, (perUser.get(d.userKey) ?? 0) + 1);
  const why: string[] = [];
  if (perUser.size < spec.users)
    why.push(`the data set has ${perUser.size} user${perUser.size === 1 ? "" : "s"} with sessions to rate, not ${spec.users}`);
  const short = [...perUser].filter(([, n]) => n < spec.sessionsPerUser);
  if (short.length) {
    const shown = short.slice(0, 5).map(([u, n]) => `${u}: ${n}`);
    why.push(
      `${short.length} user${short.length === 1 ? " has" : "s have"} fewer than ${spec.sessionsPerUser} sessions with logs or turns (${shown.join(", ")}${short.length > 5 ? ", …" : ""})`,
    );
  }
  return `Asked for ${spec.users} users × ${spec.sessionsPerUser} sessions (${asked} items); made ${drawn.length}: ${why.join("; ")}.`;
}

export function sampleSessions(
  db: Db,
  datasetId: number,
  spec: SessionSampleSpec,
): Array<{ sampleId: number; userKey: string; sampleKey: string }> {
  const ds = db.select({ kind: datasets.kind }).from(datasets).where(eq(datasets.id, datasetId)).get();
  if (!ds) throw new InvalidInputError(`dataset: no data set with id ${datasetId}`);
  if (ds.kind !== "palset") throw new InvalidInputError(`dataset: session-quality campaigns need a PAL-Set data set`);
  for (const k of ["users", "sessionsPerUser"] as const) {
    if (!Number.isInteger(spec[k]) || spec[k] < 1) throw new InvalidInputError(`${k}: expected a positive integer, got ${spec[k]}`);
  }
  const users = db
    .select({ id: palUsers.id, key: palUsers.userKey })
    .from(palUsers)
    .where(eq(palUsers.datasetId, datasetId))
    .orderBy(asc(palUsers.position))
    .all();
  const chosen = seededShuffle(users, spec.seed).slice(0, spec.users);
  const out: Array<{ sampleId: number; userKey: string; sampleKey: string }> = [];
  chosen.forEach((u, i) => {
    const sessions = db
      .select({ id: palSamples.id, key: palSamples.sampleKey })
      .from(palSamples)
      .where(and(eq(palSamples.userId, u.id), or(gt(palSamples.logCount, 0), gt(palSamples.turnCount, 0))))
      .orderBy(asc(palSamples.seq))
      .all();
    const picked = seededShuffle(sessions, spec.seed * 7919 + i + 1)
      .slice(0, spec.sessionsPerUser)
      .sort((a, b) => a.id - b.id);
    for (const s of picked) out.push({ sampleId: s.id, userKey: u.key, sampleKey: s.key });
  });
  if (out.length === 0) throw new InvalidInputError(`dataset: no session with logs or turns to sample`);
  return out;
}
