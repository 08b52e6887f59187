import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JWT } from "next-auth/jwt";
import type { Session, User } from "next-auth";
import { tempDb } from "@/test/db";
import { closeDb } from "@/db/client";
import { users } from "@/db/schema";
import { isSessionRevoked, revokeSession } from "./revocation";

const t = tempDb();
const saved = { db: process.env.PAL_DB, secret: process.env.NEXTAUTH_SECRET };

beforeAll(() => {
  process.env.PAL_DB = t.file;
  process.env.NEXTAUTH_SECRET = "a-test-secret-of-at-least-thirty-two-characters";
  t.db.insert(users).values({ email: "a@x.org", role: "admin", passwordHash: "x" }).run();
});
afterAll(() => {
  closeDb();
  t.cleanup();
  process.env.PAL_DB = saved.db;
  process.env.NEXTAUTH_SECRET = saved.secret;
});

async function callbacks() {
  const { authOptions } = await import("./options");
  const jwt = (token: JWT, user?: User) => authOptions.callbacks!.jwt!({ token, user: user!, account: null } as never) as Promise<JWT>;
  const session = (token: JWT) =>
    authOptions.callbacks!.session!({
      session: { user: { name: "a", email: "a@x.org" }, expires: "2099-01-01" },
      token,
    } as never) as Promise<Session>;
  const signOut = (token: JWT) => authOptions.events!.signOut!({ token, session: undefined as never });
  return { jwt, session, signOut };
}

describe("server-side sign-out", () => {
  it("a token of a signed-out session no longer carries a user; another session of the same user does", async () => {
    const { jwt, session, signOut } = await callbacks();
    const first = await jwt({}, { id: "1", role: "admin" } as unknown as User);
    const second = await jwt({}, { id: "1", role: "admin" } as unknown as User);
    expect(typeof first.sid).toBe("string");
    expect(first.sid).not.toBe(second.sid);
    // A refreshed token keeps its session id and user.
    const refreshed = await jwt({ ...first });
    expect(refreshed).toMatchObject({ uid: 1, sid: first.sid });
    expect((await session(refreshed)).user).toMatchObject({ id: 1, role: "admin" });

    await signOut(refreshed);
    // The cookie copied before sign-out (the older token) is refused too: same session id.
    for (const old of [first, refreshed]) {
      const after = await jwt({ ...old });
      expect(after.uid).toBeUndefined();
      expect((await session(after)).user).toBeUndefined();
    }
    expect((await session(await jwt({ ...second }))).user).toMatchObject({ id: 1 });
  });

  it("refuses a token without a session id (issued before session ids existed)", async () => {
    const { jwt, session } = await callbacks();
    const legacy = await jwt({ uid: 1, role: "admin" });
    expect((await session(legacy)).user).toBeUndefined();
  });

  it("prunes rows whose tokens have expired", () => {
    revokeSession(t.db, "old", null, 1_000, 500);
    expect(isSessionRevoked(t.db, "old")).toBe(true);
    revokeSession(t.db, "new", 1, 10_000, 2_000);
    expect(isSessionRevoked(t.db, "old")).toBe(false);
    expect(isSessionRevoked(t.db, "new")).toBe(true);
  });
});
