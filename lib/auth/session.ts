import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import type { Role } from "@/db/schema";
import { getUser, type PublicUser } from "@/lib/users/users";
import { authOptions } from "./options";
import { isAppError, storageError } from "@/lib/errors";
import { SAFE_METHODS, checkSameOrigin, hasBody, mediaType } from "./origin";
import { sessionUserId } from "./session-token";

/**
 * The session's user id: decoded once per request (a layout and its page both ask), by ./session-token
 * rather than getServerSession, which would also make a CSRF token and encrypt a refreshed cookie that
 * nothing here can set (a page or route handler's own getServerSession discards it).
 */
const requestUserId = cache(async (): Promise<number | null> => {
  const [c, h] = await Promise.all([cookies(), headers()]);
  return sessionUserId(authOptions, c, (name) => h.get(name));
});

/**
 * The signed-in user, read fresh from the database on every request: a disabled account or a
 * changed role takes effect at once, whatever the session token still says.
 */
export async function currentUser(): Promise<PublicUser | null> {
  const id = await requestUserId();
  if (!id) return null;
  const user = getUser(getDb(), id);
  return user && !user.disabled ? user : null;
}

/** For pages and server actions: no session → /login; a role not in `roles` → 403. */
export async function requireRole(...roles: Role[]): Promise<PublicUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (roles.length && !roles.includes(user.role)) forbidden();
  return user;
}

type Handler<C> = (req: Request, ctx: C & { user: PublicUser }) => Promise<Response> | Response;

export type WithRoleOptions = {
  /**
   * Media types a state-changing request's body may have. Default: JSON only, so that a plain HTML
   * form (text/plain, urlencoded, multipart), which any site can make a browser submit, never reaches
   * a JSON handler. The upload route lists its own types.
   */
  accepts?: string[];
};

/**
 * Wraps a route handler: a state-changing request not from the app's own pages → 403 (see
 * ./origin); 401 without a session, 403 for a role not in `roles`; a body of another media type →
 * 415; an AppError thrown by the handler becomes `{ error, code }` with its status.
 * Every handler under app/api (except next-auth's own) is built with this.
 */
export function withRole<C = unknown>(roles: Role[], handler: Handler<C>, options: WithRoleOptions = {}) {
  const accepts = options.accepts ?? ["application/json"];
  return async (req: Request, ctx: C): Promise<Response> => {
    const origin = checkSameOrigin(req.method, req.headers);
    if (!origin.ok) return NextResponse.json({ error: origin.reason, code: "cross_site" }, { status: 403 });
    const user = await currentUser();
    if (!user) return NextResponse.json({ error: "not signed in" }, { status: 401 });
    if (roles.length && !roles.includes(user.role)) return NextResponse.json({ error: "forbidden" }, { status: 403 });
    if (!SAFE_METHODS.has(req.method) && hasBody(req.headers) && !accepts.includes(mediaType(req.headers))) {
      const got = mediaType(req.headers) || "none";
      return NextResponse.json(
        { error: `send the body as ${accepts.join(" or ")} (got ${got})`, code: "unsupported_media_type" },
        { status: 415 },
      );
    }
    try {
      return await handler(req, { ...ctx, user });
    } catch (e) {
      // Expected failures carry their status; anything else is a bug and stays a 500.
      // A full disk or read-only database is the server's state, not a bug in the request: say so plainly.
      const known = isAppError(e) ? e : storageError(e);
      if (known) return NextResponse.json({ error: known.message, code: known.code }, { status: known.status });
      throw e;
    }
  };
}
