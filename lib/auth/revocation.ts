import { eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { revokedSessions } from "@/db/schema";

/**
 * Server-side sign-out. A session cookie is a signed token that stays valid until it expires, so
 * signing out records the session's id here and every request refuses a token whose id is listed
 * (see the jwt callback in ./options). Only that one session ends: the same user's sessions in other
 * browsers go on.
 */
export function revokeSession(db: Db, sid: string, userId: number | null, expiresAt: number, now = Date.now()): void {
  db.transaction((tx) => {
    // Tokens past their expiry are refused anyway; their rows are no longer needed.
    tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now)).run();
    tx.insert(revokedSessions).values({ sid, userId, expiresAt, revokedAt: now }).onConflictDoNothing().run();
  });
}

export function isSessionRevoked(db: Db, sid: string): boolean {
  return db.select({ sid: revokedSessions.sid }).from(revokedSessions).where(eq(revokedSessions.sid, sid)).get() !== undefined;
}
