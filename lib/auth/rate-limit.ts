import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginAttempts } from "@/db/schema";

/**
 * Failed logins allowed within the window: per email (guessing one account's password), and per IP
 * (spraying many accounts). The IP limit is higher because a lab's annotators often share one
 * address behind NAT, and one person's typos must not lock out the whole room.
 */
export const LOGIN_LIMIT = { maxFailures: 10, maxFailuresPerIp: 100, windowMs: 15 * 60 * 1000 };

function failuresSince(db: Db, column: typeof loginAttempts.email | typeof loginAttempts.ip, value: string, since: number) {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(loginAttempts)
      .where(and(eq(column, value), eq(loginAttempts.success, false), gte(loginAttempts.at, since)))
      .get()?.n ?? 0
  );
}

/** True when this email or this IP has used up its failed attempts in the current window. */
export function isLoginLocked(db: Db, email: string, ip: string, now = Date.now()): boolean {
  const since = now - LOGIN_LIMIT.windowMs;
  return (
    failuresSince(db, loginAttempts.email, email, since) >= LOGIN_LIMIT.maxFailures ||
    failuresSince(db, loginAttempts.ip, ip, since) >= LOGIN_LIMIT.maxFailuresPerIp
  );
}

export function recordLoginAttempt(db: Db, email: string, ip: string, success: boolean, now = Date.now()): void {
  db.insert(loginAttempts).values({ email, ip, success, at: now }).run();
  // Old attempts are useless; keep the table small.
  db.delete(loginAttempts)
    .where(lt(loginAttempts.at, now - 2 * LOGIN_LIMIT.windowMs))
    .run();
}
