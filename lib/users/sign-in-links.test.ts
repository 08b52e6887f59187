/** One-time sign-in links (issue 44.7) on a real SQLite database: hashed, once, expiring, revocable. */
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser, updateUser } from "./users";
import { issueSignInLink, openSignInLinks, revokeSignInLink, signInLinkState, spendSignInLink } from "./sign-in-links";
import { issueLinkForm, revokeLinkForm } from "./user-forms";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

const form = (o: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(o)) f.set(k, v);
  return f;
};

describe("sign-in links", () => {
  it("stores only the token's hash, signs its user in once, then refuses saying it was used", async () => {
    t = tempDb();
    const admin = await createUser(t.db, { email: "pi@x.org", role: "admin", password: "password-1" });
    const ann = await createUser(t.db, { email: "ann@x.org", role: "annotator", password: "password-1" });
    const now = Date.UTC(2026, 11, 5, 12);
    const l = issueSignInLink(t.db, ann.id, admin.id, 24, now);
    expect(l.path).toBe(`/signin-link/${l.token}`);
    expect(l.expiresAt).toBe(now + 24 * 3600_000);
    const row = t.db.$client.prepare("SELECT token_hash AS h, created_by AS by FROM sign_in_links").get() as { h: string; by: number };
    expect(row.h).toBe(crypto.createHash("sha256").update(l.token).digest("hex"));
    expect(JSON.stringify(t.db.$client.prepare("SELECT * FROM sign_in_links").all())).not.toContain(l.token);
    expect(row.by).toBe(admin.id);
    expect(signInLinkState(t.db, l.token, now)).toEqual({ state: "valid", email: "ann@x.org", expiresAt: l.expiresAt });
    expect(openSignInLinks(t.db, now)).toEqual([{ id: l.id, userId: ann.id, expiresAt: l.expiresAt, createdAt: now }]);
    const u = spendSignInLink(t.db, l.token, now + 1000);
    expect(u).toMatchObject({ id: ann.id, email: "ann@x.org", role: "annotator", lastLoginAt: now + 1000 });
    expect(() => spendSignInLink(t!.db, l.token, now + 2000)).toThrow("This sign-in link was already used (2026-12-05 12:00 UTC).");
    expect(openSignInLinks(t.db, now + 2000)).toEqual([]);
  });

  it("expires after its hours, can be revoked, and a new link replaces the open one", async () => {
    t = tempDb();
    const ann = await createUser(t.db, { email: "ann@x.org", role: "annotator", password: "password-1" });
    const now = Date.UTC(2026, 11, 5, 12);
    const a = issueSignInLink(t.db, ann.id, null, 24, now);
    expect(() => spendSignInLink(t!.db, a.token, now + 24 * 3600_000)).toThrow("This sign-in link expired at 2026-12-06 12:00 UTC.");
    const b = issueSignInLink(t.db, ann.id, null, 1, now);
    const c = issueSignInLink(t.db, ann.id, null, 1, now);
    expect(signInLinkState(t.db, b.token, now)).toEqual({ state: "revoked" });
    expect(revokeSignInLink(t.db, c.id, now)).toEqual({ email: "ann@x.org" });
    expect(() => spendSignInLink(t!.db, c.token, now)).toThrow("This sign-in link was revoked.");
    expect(() => revokeSignInLink(t!.db, c.id, now)).toThrow(`no open sign-in link with id ${c.id}`);
  });

  it("refuses a token that is not one, a disabled account, a participant and impossible hours", async () => {
    t = tempDb();
    const ann = await createUser(t.db, { email: "ann@x.org", role: "annotator", password: "password-1" });
    for (const bad of ["", "x", "a".repeat(43) + "'; DROP TABLE users; --", "%".repeat(43)])
      expect(() => spendSignInLink(t!.db, bad)).toThrow("This sign-in link is not valid.");
    expect(signInLinkState(t.db, crypto.randomBytes(32).toString("base64url"))).toEqual({ state: "unknown" });
    expect(() => issueSignInLink(t!.db, ann.id, null, 0)).toThrow("hours: a link lasts more than 0 and at most 168 hours (got 0)");
    expect(() => issueSignInLink(t!.db, ann.id, null, 169)).toThrow("(got 169)");
    expect(() => issueSignInLink(t!.db, 999, null)).toThrow("no user with id 999");
    const l = issueSignInLink(t.db, ann.id, null);
    updateUser(t.db, ann.id, { disabled: true });
    expect(() => spendSignInLink(t!.db, l.token)).toThrow("The account of this sign-in link is disabled.");
    expect(() => issueSignInLink(t!.db, ann.id, null)).toThrow("ann@x.org is disabled");
    const p = Number(
      t.db.$client.prepare("INSERT INTO users (email, role, password_hash) VALUES ('p@x', 'participant', '!')").run().lastInsertRowid,
    );
    expect(() => issueSignInLink(t!.db, p, null)).toThrow("is a study participant");
  });

  it("the admin forms: issue returns the path once, revoke names the account; bad ids refused", async () => {
    t = tempDb();
    const admin = await createUser(t.db, { email: "pi@x.org", role: "admin", password: "password-1" });
    const r = await createUser(t.db, { email: "r@x.org", role: "researcher", password: "password-1" });
    const out = issueLinkForm(t.db, form({ id: String(r.id) }), admin.id);
    expect(out.ok).toMatch(/^Sign-in link for r@x\.org \(shown once; it signs in once, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(out.link).toMatch(/^\/signin-link\/[A-Za-z0-9_-]{43}$/);
    const [open] = openSignInLinks(t.db);
    expect(revokeLinkForm(t.db, form({ link: String(open.id) }))).toEqual({ ok: "Revoked the sign-in link of r@x.org." });
    expect(() => issueLinkForm(t!.db, form({ id: "abc" }), admin.id)).toThrow("expected the user id as a positive whole number");
  });

  it("pal user link prints the link once; pal user revoke-link revokes it", async () => {
    t = tempDb();
    await createUser(t.db, { email: "ann@x.org", role: "annotator", password: "password-1" });
    const pal = (...args: string[]) =>
      spawnSync("node", ["bin/pal.mjs", "user", ...args], {
        env: { ...process.env, PAL_DB: t!.file, NEXTAUTH_URL: "https://pal.example.org/" },
        encoding: "utf8",
        timeout: 120_000,
      });
    const out = pal("link", "--email", "ann@x.org", "--hours", "2");
    expect(out.stderr).toBe("");
    const url = out.stdout.trim().split("\n")[1];
    expect(url).toMatch(/^https:\/\/pal\.example\.org\/signin-link\/[A-Za-z0-9_-]{43}$/);
    const token = url.split("/").pop()!;
    expect(signInLinkState(t.db, token)).toMatchObject({ state: "valid", email: "ann@x.org" });
    expect(pal("revoke-link", "--email", "ann@x.org").stdout).toBe("revoked 1 open sign-in link of ann@x.org\n");
    expect(signInLinkState(t.db, token)).toEqual({ state: "revoked" });
    const bad = pal("link", "--email", "ann@x.org", "--hours", "500");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toBe("pal: hours: a link lasts more than 0 and at most 168 hours (got 500)\n");
  });
});
