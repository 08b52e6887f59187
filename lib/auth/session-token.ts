/**
 * The signed-in user's id from the request's session cookie, as next-auth's getServerSession finds it, without
 * the rest of its session round trip. In a page or route handler getServerSession runs next-auth's whole
 * handler: a new CSRF token, the cookie decoded, then the token encrypted again for a refreshed cookie
 * that a server component cannot set and that it throws away. This does the decode and the same two
 * callbacks (options.ts: the revocation check, the user's id) and nothing else. The cookie's name follows
 * next-auth's own rule (core/init.js, utils/detect-origin.js, utils/parse-url.js; next-auth 4.24).
 */
import { decode } from "next-auth/jwt";
import type { NextAuthOptions, Session } from "next-auth";
import type { JWT } from "next-auth/jwt";

export type RequestCookies = { getAll(): Array<{ name: string; value: string }> };
export type HeaderGetter = (name: string) => string | null | undefined;

/** The URL next-auth takes as the app's: NEXTAUTH_URL, else (when trusted) the request's own host. */
function authOrigin(header: HeaderGetter, env: NodeJS.ProcessEnv): string | undefined {
  if (env.NEXTAUTH_URL) return env.NEXTAUTH_URL;
  if (env.VERCEL ?? env.AUTH_TRUST_HOST)
    return `${header("x-forwarded-proto") === "http" ? "http" : "https"}://${header("x-forwarded-host") ?? header("host")}`;
  return env.NEXTAUTH_URL;
}

/** next-auth's session cookie name for this request: `__Secure-` prefixed when its URL is https. */
export function sessionCookieName(options: NextAuthOptions, header: HeaderGetter, env: NodeJS.ProcessEnv = process.env): string {
  if (options.cookies?.sessionToken?.name) return options.cookies.sessionToken.name;
  let url = authOrigin(header, env);
  if (url && !url.startsWith("http")) url = `https://${url}`;
  const secure = options.useSecureCookies ?? new URL(url ?? "http://localhost:3000/api/auth").origin.startsWith("https://");
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

/** The session token: the cookie, or its chunks (`name.0`, `name.1`, ...) joined in order, as next-auth's SessionStore reads it. */
function sessionCookieValue(cookies: RequestCookies, name: string): string {
  const chunks: Record<string, string> = {};
  for (const c of cookies.getAll()) if (c.name.startsWith(name)) chunks[c.name] = c.value;
  return Object.keys(chunks)
    .sort((a, b) => parseInt(a.split(".").pop() ?? "0") - parseInt(b.split(".").pop() ?? "0"))
    .map((k) => chunks[k])
    .join("");
}

/**
 * The user id the session names, or null (no cookie, a token that does not decode or has expired, a signed-out
 * session, no user in it). The same answer as `getServerSession(options)?.user?.id`.
 */
export async function sessionUserId(
  options: NextAuthOptions,
  cookies: RequestCookies,
  header: HeaderGetter,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number | null> {
  const token = sessionCookieValue(cookies, sessionCookieName(options, header, env));
  if (!token) return null;
  try {
    const secret = options.secret ?? env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
    const decoded = await (options.jwt?.decode ?? decode)({ ...options.jwt, secret: secret!, token });
    if (!decoded) throw new Error("JWT invalid");
    const jwt = options.callbacks?.jwt;
    const t: JWT = jwt ? await jwt({ token: decoded, session: undefined } as never) : decoded;
    const user = { name: decoded.name, email: decoded.email, image: decoded.picture };
    const expires = new Date(Date.now() + (options.session?.maxAge ?? 30 * 24 * 60 * 60) * 1000).toISOString();
    const s = options.callbacks?.session;
    const session = (s ? await s({ session: { user, expires }, token: t } as never) : { user, expires }) as Session;
    const id = (session?.user as { id?: unknown } | undefined)?.id;
    return typeof id === "number" && id ? id : null;
  } catch (e) {
    // As next-auth logs it: a cookie from another secret, a tampered or expired token.
    console.error(`[next-auth][error][JWT_SESSION_ERROR] ${(e as Error).message}`);
    return null;
  }
}
