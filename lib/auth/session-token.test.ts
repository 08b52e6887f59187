/**
 * ./session-token reads the session as next-auth's own handler does: for each case the user id it finds is
 * the one `getServerSession` returns (next-auth's AuthHandler, "session" action, run beside it here).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getServerSession } from "next-auth";
import { encode, type JWT } from "next-auth/jwt";
import type { NextAuthOptions, Session, User } from "next-auth";
import { tempDb } from "@/test/db";
import { closeDb } from "@/db/client";
import { users } from "@/db/schema";
import { sessionCookieName, sessionUserId } from "./session-token";

const t = tempDb();
const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const ENV_KEYS = ["PAL_DB", "NEXTAUTH_SECRET", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
let options: NextAuthOptions;

beforeAll(async () => {
  process.env.PAL_DB = t.file;
  process.env.NEXTAUTH_SECRET = SECRET;
  t.db.insert(users).values({ email: "a@x.org", role: "participant", passwordHash: "!" }).run();
  options = (await import("./options")).authOptions;
  vi.spyOn(console, "error").mockImplementation(() => {}); // both sides log refused tokens
});
afterAll(() => {
  closeDb();
  t.cleanup();
  for (const k of ENV_KEYS)
    if (saved[k] === undefined) delete process.env[k];
    else (process.env as Record<string, string>)[k] = saved[k]!;
  vi.restoreAllMocks();
});

/** What getServerSession(options)?.user?.id is for these cookies and headers (given as a request, not read from next/headers). */
async function nextAuthUserId(cookies: Record<string, string>, headers: Record<string, string>): Promise<number | null> {
  const res = { getHeader() {}, setCookie() {}, setHeader() {} };
  const session = (await getServerSession({ cookies, headers } as never, res as never, options)) as Session | null;
  return (session?.user as { id?: number } | undefined)?.id ?? null;
}

async function ours(cookies: Record<string, string>, headers: Record<string, string>): Promise<number | null> {
  const jar = { getAll: () => Object.entries(cookies).map(([name, value]) => ({ name, value })) };
  return sessionUserId(options, jar, (n) => headers[n]);
}

/** A token as sign-in makes it: the jwt callback with the user, then encoded. */
async function signedIn(id: number, maxAge = 3600, secret = SECRET): Promise<{ token: string; claims: JWT }> {
  const claims = (await options.callbacks!.jwt!({
    token: {},
    user: { id: String(id), role: "participant" } as unknown as User,
  } as never)) as JWT;
  return { token: await encode({ token: claims, secret, maxAge }), claims };
}

function setEnv(env: { NEXTAUTH_URL?: string; AUTH_TRUST_HOST?: string }) {
  for (const k of ["NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"] as const) delete process.env[k];
  Object.assign(process.env, env);
}

async function both(cookies: Record<string, string>, headers: Record<string, string> = { host: "localhost:3000" }) {
  const [a, b] = [await nextAuthUserId(cookies, headers), await ours(cookies, headers)];
  expect(b).toBe(a);
  return b;
}

describe("sessionUserId", () => {
  it("finds the user of a valid session, and nobody without a cookie, as next-auth does", async () => {
    setEnv({ NEXTAUTH_URL: "http://localhost:3000" });
    const { token } = await signedIn(1);
    expect(await both({ "next-auth.session-token": token })).toBe(1);
    expect(await both({})).toBeNull();
    expect(await both({ "next-auth.csrf-token": "x" })).toBeNull();
  });

  it("refuses what next-auth refuses: garbage, another secret, an expired token, a signed-out session, no session id", async () => {
    setEnv({ NEXTAUTH_URL: "http://localhost:3000" });
    expect(await both({ "next-auth.session-token": "not-a-jwe" })).toBeNull();
    expect(
      await both({ "next-auth.session-token": (await signedIn(1, 3600, "another-secret-of-thirty-two-characters!")).token }),
    ).toBeNull();
    expect(await both({ "next-auth.session-token": (await signedIn(1, -120)).token })).toBeNull();
    const { token, claims } = await signedIn(1);
    await options.events!.signOut!({ token: claims, session: undefined as never });
    expect(await both({ "next-auth.session-token": token })).toBeNull();
    const noSid = await encode({ token: { uid: 1, role: "participant" }, secret: SECRET });
    expect(await both({ "next-auth.session-token": noSid })).toBeNull();
  });

  it("reads the cookie name next-auth uses: __Secure- behind https, from NEXTAUTH_URL or a trusted host's headers", async () => {
    const { token } = await signedIn(1);
    setEnv({ NEXTAUTH_URL: "https://study.example.org" });
    expect(await both({ "__Secure-next-auth.session-token": token })).toBe(1);
    expect(await both({ "next-auth.session-token": token })).toBeNull();
    setEnv({ AUTH_TRUST_HOST: "true" });
    expect(sessionCookieName(options, () => undefined)).toBe("__Secure-next-auth.session-token");
    expect(await both({ "__Secure-next-auth.session-token": token }, { host: "h.example" })).toBe(1);
    expect(await both({ "next-auth.session-token": token }, { host: "h.example", "x-forwarded-proto": "http" })).toBe(1);
    expect(await both({ "next-auth.session-token": token }, { host: "h.example" })).toBeNull();
    setEnv({});
    expect(await both({ "next-auth.session-token": token })).toBe(1);
  });

  it("joins a chunked cookie (name.0, name.1, ...) in order, as next-auth does", async () => {
    setEnv({ NEXTAUTH_URL: "http://localhost:3000" });
    const { token } = await signedIn(1);
    const half = Math.floor(token.length / 2);
    expect(await both({ "next-auth.session-token.1": token.slice(half), "next-auth.session-token.0": token.slice(0, half) })).toBe(1);
  });
});
