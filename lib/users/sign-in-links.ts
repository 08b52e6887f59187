/**
 * One-time sign-in links (issue 44.7): an admin issues one for an account from Admin → Users (or
 * `pal user link`); it signs that account in once, before it expires (24 h unless told otherwise), and
 * can be revoked. Only the token's sha256 is stored: the link is shown once, to copy, and a copy of the
 * database signs nobody in. Issuing a new link for an account revokes its earlier unused ones.
 */
import crypto from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signInLinks, users } from "@/db/schema";
import { ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { getUser, type PublicUser } from "./users";

export const LINK_DEFAULT_HOURS = 24;
export const LINK_MAX_HOURS = 7 * 24;
/** 32 random bytes, base64url: what a link's last segment must look like before it is hashed or looked up. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** The path a link opens (the page builds the full address from where it is served). */
export const signInLinkPath = (token: string) => `/signin-link/${token}`;

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export type IssuedLink = { id: number; token: string; path: string; expiresAt: number; user: PublicUser };

/** A new link for the account; its token is returned here only (the database keeps its hash). */
export function issueSignInLink(db: Db, userId: number, byId: number | null, hours = LINK_DEFAULT_HOURS, now = Date.now()): IssuedLink {
  if (!Number.isFinite(hours) || hours <= 0 || hours > LINK_MAX_HOURS)
    throw new InvalidInputError(`hours: a link lasts more than 0 and at most ${LINK_MAX_HOURS} hours (got ${hours})`);
  const user = getUser(db, userId);
  if (!user) throw new NotFoundError(`no user with id ${userId}`);
  if (user.role === "participant")
    throw new InvalidInputError(`user ${userId} is a study participant: they come back through their study link`);
  if (user.disabled) throw new InvalidInputError(`${user.email} is disabled: enable the account before issuing a sign-in link`);
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = now + Math.round(hours * 3600_000);
  const id = db.transaction((tx) => {
    tx.update(signInLinks)
      .set({ revokedAt: now })
      .where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt), isNull(signInLinks.revokedAt)))
      .run();
    return tx
      .insert(signInLinks)
      .values({ userId, tokenHash: hashToken(token), createdBy: byId, createdAt: now, expiresAt })
      .returning({ id: signInLinks.id })
      .get().id;
  });
  return { id, token, path: signInLinkPath(token), expiresAt, user };
}

export type LinkState =
  | { state: "valid"; email: string; expiresAt: number }
  | { state: "used"; usedAt: number }
  | { state: "expired"; expiresAt: number }
  | { state: "revoked" }
  | { state: "disabled" }
  | { state: "unknown" };

/** What a link is now, without using it (the landing page shows it; a link preview must not spend it). */
export function signInLinkState(db: Db, token: string, now = Date.now()): LinkState {
  if (!TOKEN_RE.test(token)) return { state: "unknown" };
  const row = db
    .select({ l: signInLinks, email: users.email, disabled: users.disabled })
    .from(signInLinks)
    .innerJoin(users, eq(users.id, signInLinks.userId))
    .where(eq(signInLinks.tokenHash, hashToken(token)))
    .get();
  if (!row) return { state: "unknown" };
  if (row.l.usedAt !== null) return { state: "used", usedAt: row.l.usedAt };
  if (row.l.revokedAt !== null) return { state: "revoked" };
  if (row.l.expiresAt <= now) return { state: "expired", expiresAt: row.l.expiresAt };
  if (row.disabled) return { state: "disabled" };
  return { state: "valid", email: row.email, expiresAt: row.l.expiresAt };
}

/** Why a link signs nobody in, in words the landing page and the sign-in error show. */
export function linkRefusal(s: Exclude<LinkState, { state: "valid" }>): string {
  const at = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  switch (s.state) {
    case "used":
      return `This sign-in link was already used (${at(s.usedAt)}). A link signs in once: ask your admin for a new one.`;
    case "expired":
      return `This sign-in link expired at ${at(s.expiresAt)}. Ask your admin for a new one.`;
    case "revoked":
      return "This sign-in link was revoked. Ask your admin for a new one.";
    case "disabled":
      return "The account of this sign-in link is disabled.";
    default:
      return "This sign-in link is not valid. Check that it was copied whole, or ask your admin for a new one.";
  }
}

/**
 * Spends the link and returns its account, or refuses saying why. One UPDATE marks it used only while it
 * is unused, unrevoked and unexpired, so two opens at once sign in once.
 */
export function spendSignInLink(db: Db, token: string, now = Date.now()): PublicUser {
  const state = signInLinkState(db, token, now);
  if (state.state !== "valid") throw new ForbiddenError(linkRefusal(state));
  const spent = db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(signInLinks.tokenHash, hashToken(token)),
        isNull(signInLinks.usedAt),
        isNull(signInLinks.revokedAt),
        gt(signInLinks.expiresAt, now),
      ),
    )
    .returning({ userId: signInLinks.userId })
    .get();
  if (!spent) throw new ForbiddenError(linkRefusal(signInLinkState(db, token, now) as Exclude<LinkState, { state: "valid" }>));
  db.update(users).set({ lastLoginAt: now }).where(eq(users.id, spent.userId)).run();
  return getUser(db, spent.userId)!;
}

/** Revokes one link (an unused one; a used link has nothing left to revoke). */
export function revokeSignInLink(db: Db, id: number, now = Date.now()): { email: string } {
  const row = db
    .update(signInLinks)
    .set({ revokedAt: now })
    .where(and(eq(signInLinks.id, id), isNull(signInLinks.usedAt), isNull(signInLinks.revokedAt)))
    .returning({ userId: signInLinks.userId })
    .get();
  if (!row) throw new NotFoundError(`no open sign-in link with id ${id} (used, revoked or never issued)`);
  return { email: getUser(db, row.userId)?.email ?? `user ${row.userId}` };
}

/** The links still open (unused, unrevoked, unexpired), per account: Admin → Users lists them with Revoke. */
export function openSignInLinks(db: Db, now = Date.now()): Array<{ id: number; userId: number; expiresAt: number; createdAt: number }> {
  return db
    .select({ id: signInLinks.id, userId: signInLinks.userId, expiresAt: signInLinks.expiresAt, createdAt: signInLinks.createdAt })
    .from(signInLinks)
    .where(and(isNull(signInLinks.usedAt), isNull(signInLinks.revokedAt), gt(signInLinks.expiresAt, now)))
    .all();
}

/** Revokes every open link of an account (`pal user revoke-link`); returns how many. */
export function revokeOpenLinks(db: Db, userId: number, now = Date.now()): number {
  return db
    .update(signInLinks)
    .set({ revokedAt: now })
    .where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt), isNull(signInLinks.revokedAt), gt(signInLinks.expiresAt, now)))
    .run().changes;
}
