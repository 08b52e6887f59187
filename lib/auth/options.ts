import crypto from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users, type Role } from "@/db/schema";
import { findUserWithHash } from "@/lib/users/users";
import { verifyPassword } from "@/lib/users/password";
import { isLoginLocked, recordLoginAttempt } from "./rate-limit";
import { authSecret } from "./secret";
import { clientIp } from "./client-ip";
import { isAppError } from "@/lib/errors";
import { isSessionRevoked, revokeSession } from "./revocation";

// Without NEXTAUTH_URL, next-auth v4 only derives its URL from the request when told to trust it.
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

/** The messages the login page shows for a refused sign-in (next-auth passes them as `error`). */
export const LOGIN_ERRORS = {
  invalid: "Wrong email or password.",
  locked: "Too many failed attempts. Try again in 15 minutes.",
} as const;

/** Longest email address (RFC 5321); longer input is refused before anything touches the database. */
export const MAX_EMAIL_LENGTH = 254;

/** How long a session lives without use (seconds); every request that reads it extends it by this much. */
export const SESSION_MAX_AGE = 12 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    Credentials({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email = String(credentials?.email ?? "")
          .trim()
          .toLowerCase();
        const password = String(credentials?.password ?? "");
        if (!email || !password || email.length > MAX_EMAIL_LENGTH || password.length > 1024) throw new Error("invalid");
        const db = getDb();
        const ip = clientIp(req?.headers as Record<string, unknown> | undefined);
        if (isLoginLocked(db, email, ip)) throw new Error("locked");
        const found = findUserWithHash(db, email);
        // A crowd participant has no password: they come back through their study link only.
        const user = found?.role === "participant" ? undefined : found;
        // Compare even for unknown users so timing does not reveal which emails exist.
        const ok = await verifyPassword(password, user?.passwordHash ?? "$2b$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva");
        const success = Boolean(user && ok && !user.disabled);
        recordLoginAttempt(db, email, ip, success);
        if (!success || !user) throw new Error("invalid");
        db.update(users).set({ lastLoginAt: Date.now() }).where(eq(users.id, user.id)).run();
        return { id: String(user.id), email: user.email, name: user.name ?? user.email, role: user.role };
      },
    }),
    // A crowd participant signs in from their study link (app/join): no password; the link's token,
    // their Prolific ids and their browser's key (lib/annotation/participants/join.ts). Refusals
    // travel as the error message, which the join page shows.
    Credentials({
      id: "participant",
      name: "Study link",
      credentials: { token: {}, pid: {}, studyId: {}, sessionId: {}, browserKey: {}, consent: {} },
      async authorize(credentials) {
        const c = (credentials ?? {}) as Record<string, string | undefined>;
        const { joinCampaign } = await import("@/lib/annotation/participants/join");
        try {
          const { userId } = joinCampaign(getDb(), {
            token: String(c.token ?? ""),
            pid: c.pid || null,
            studyId: c.studyId || null,
            sessionId: c.sessionId || null,
            browserKey: String(c.browserKey ?? ""),
            consent: c.consent === "true",
          });
          return { id: String(userId), email: "", name: "participant", role: "participant" };
        } catch (e) {
          throw new Error(isAppError(e) ? e.message : "could not join the study");
        }
      },
    }),
    // A one-time sign-in link an admin issued (lib/users/sign-in-links.ts): the token signs its account in
    // once; a refusal (used, expired, revoked) travels as the error message, which the link's page shows.
    Credentials({
      id: "link",
      name: "Sign-in link",
      credentials: { token: {} },
      async authorize(credentials) {
        const token = String((credentials as Record<string, unknown> | undefined)?.token ?? "");
        const { spendSignInLink } = await import("@/lib/users/sign-in-links");
        try {
          const u = spendSignInLink(getDb(), token.slice(0, 100));
          return { id: String(u.id), email: u.email, name: u.name ?? u.email, role: u.role };
        } catch (e) {
          throw new Error(isAppError(e) ? e.message : "could not sign in with this link");
        }
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.uid = Number(user.id);
        token.role = (user as unknown as { role: Role }).role;
        // The session's id: kept by every refreshed token, listed in revoked_sessions at sign-out.
        token.sid = crypto.randomUUID();
      }
      // A signed-out session (or a token from before session ids): an empty token, i.e. no user.
      if (typeof token.sid !== "string" || isSessionRevoked(getDb(), token.sid)) return {};
      return token;
    },
    async session({ session, token }) {
      // No user in the token (signed out): a session without a user, not the cookie's old name and email.
      if (typeof token.uid !== "number") return { expires: session.expires } as typeof session;
      if (session.user) {
        (session.user as { id?: number }).id = token.uid as number;
        (session.user as { role?: Role }).role = token.role as Role;
      }
      return session;
    },
  },
  events: {
    async signOut({ token }) {
      if (typeof token?.sid !== "string") return;
      // Any token of this session was issued before now, so none outlives now + maxAge.
      const uid = typeof token.uid === "number" ? token.uid : null;
      revokeSession(getDb(), token.sid, uid, Date.now() + SESSION_MAX_AGE * 1000);
    },
  },
};
