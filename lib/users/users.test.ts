import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser, findUserWithHash, getUser, listUsers, updateUser, setPassword } from "./users";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { verifyPassword } from "@/lib/users/password";
import { isLoginLocked, recordLoginAttempt, LOGIN_LIMIT } from "@/lib/auth/rate-limit";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

describe("users", () => {
  it("creates users with bcrypt hashes, normalised emails and validated roles", async () => {
    t = tempDb();
    const u = await createUser(t.db, { email: " Ann@Example.org ", role: "annotator", password: "correct horse" });
    expect(u).toMatchObject({ email: "ann@example.org", role: "annotator", disabled: false });
    const row = findUserWithHash(t.db, "ANN@example.org")!;
    expect(row.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    expect(row.passwordHash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", row.passwordHash)).toBe(true);
    await expect(createUser(t.db, { email: "ann@example.org", role: "admin", password: "12345678" })).rejects.toThrow(ConflictError);
    await expect(createUser(t.db, { email: "x@y.z", role: "boss" as never, password: "12345678" })).rejects.toThrow(InvalidInputError);
    await expect(createUser(t.db, { email: "not-an-email", role: "admin", password: "12345678" })).rejects.toThrow(/email/);
    await expect(createUser(t.db, { email: "a@b.cd", role: "admin", password: "short" })).rejects.toThrow(/8 characters/);
    expect(listUsers(t.db)).toHaveLength(1);
  });

  it("changes role, disables and resets passwords", async () => {
    t = tempDb();
    const u = await createUser(t.db, { email: "r@x.org", role: "researcher", password: "password-1" });
    expect(updateUser(t.db, u.id, { role: "admin", disabled: true })).toMatchObject({ role: "admin", disabled: true });
    await setPassword(t.db, u.id, "password-2");
    expect(await verifyPassword("password-2", findUserWithHash(t.db, "r@x.org")!.passwordHash)).toBe(true);
    expect(() => updateUser(t!.db, 999, { disabled: true })).toThrow(NotFoundError);
    await expect(setPassword(t.db, u.id, "short")).rejects.toThrow(InvalidInputError);
  });

  it("refuses an admin demoting or disabling their own account, and changes nothing", async () => {
    t = tempDb();
    const me = await createUser(t.db, { email: "pi@x.org", role: "admin", password: "password-1" });
    const other = await createUser(t.db, { email: "a@x.org", role: "admin", password: "password-1" });
    const refusal = "you cannot demote or disable your own account";
    expect(() => updateUser(t!.db, me.id, { role: "researcher" }, me.id)).toThrow(new ForbiddenError(refusal));
    expect(() => updateUser(t!.db, me.id, { disabled: true }, me.id)).toThrow(ForbiddenError);
    expect(() => updateUser(t!.db, me.id, { role: "admin", disabled: true }, me.id)).toThrow(refusal);
    expect(getUser(t.db, me.id)).toMatchObject({ role: "admin", disabled: false });
    // Keeping one's own role, or changing another admin, is allowed.
    expect(updateUser(t.db, me.id, { role: "admin", disabled: false }, me.id)).toMatchObject({ role: "admin" });
    expect(updateUser(t.db, other.id, { role: "annotator", disabled: true }, me.id)).toMatchObject({ role: "annotator", disabled: true });
    expect(() => updateUser(t!.db, other.id, { role: "boss" as never }, me.id)).toThrow(InvalidInputError);
  });
});

describe("login rate limit", () => {
  it("locks an email after the allowed failures within the window, and frees it after", () => {
    t = tempDb();
    const now = 1_700_000_000_000;
    for (let i = 0; i < LOGIN_LIMIT.maxFailures - 1; i++) recordLoginAttempt(t.db, "a@x.org", `10.0.0.${i}`, false, now + i);
    expect(isLoginLocked(t.db, "a@x.org", "10.9.9.9", now + 100)).toBe(false);
    recordLoginAttempt(t.db, "a@x.org", "10.0.0.99", false, now + 200);
    expect(isLoginLocked(t.db, "a@x.org", "10.9.9.9", now + 300)).toBe(true);
    expect(isLoginLocked(t.db, "b@x.org", "10.9.9.9", now + 300)).toBe(false);
    expect(isLoginLocked(t.db, "a@x.org", "10.9.9.9", now + 200 + LOGIN_LIMIT.windowMs + 1)).toBe(false);
  });

  it("locks an IP that fails across many emails, at a higher limit than one email", () => {
    t = tempDb();
    const now = 1_700_000_000_000;
    for (let i = 0; i < LOGIN_LIMIT.maxFailuresPerIp - 1; i++) recordLoginAttempt(t.db, `u${i}@x.org`, "10.1.1.1", false, now + i);
    expect(isLoginLocked(t.db, "fresh@x.org", "10.1.1.1", now + 500)).toBe(false);
    recordLoginAttempt(t.db, "last@x.org", "10.1.1.1", false, now + 600);
    expect(isLoginLocked(t.db, "fresh@x.org", "10.1.1.1", now + 700)).toBe(true);
    expect(isLoginLocked(t.db, "fresh@x.org", "10.1.1.2", now + 700)).toBe(false);
  });
});
