/** Admin → Users: a reset password works at once, the old one no longer (issue 44.7). */
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser, findUserWithHash } from "./users";
import { verifyPassword } from "./password";
import { resetPasswordForm } from "./user-forms";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("resetPasswordForm", () => {
  it("sets a new generated password, returned once; the old one stops working", async () => {
    t = tempDb();
    const u = await createUser(t.db, { email: "ann@x.io", role: "annotator", password: "old password 1" });
    const r = await resetPasswordForm(t.db, form({ id: String(u.id) }));
    expect(r.ok).toContain("ann@x.io");
    expect(r.password.length).toBeGreaterThanOrEqual(12);
    const hash = findUserWithHash(t.db, "ann@x.io")!.passwordHash;
    expect(await verifyPassword(r.password, hash)).toBe(true);
    expect(await verifyPassword("old password 1", hash)).toBe(false);
    await expect(resetPasswordForm(t.db, form({ id: "9999" }))).rejects.toThrow(/no user with id 9999/);
  });
});
