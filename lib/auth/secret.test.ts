import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { authSecret, secretFile } from "./secret";
import type { Env } from "./origin";

let tmp: string;
let env: Env;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-secret-"));
  env = { PAL_PRIVATE_DIR: path.join(tmp, "private") };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("authSecret", () => {
  it("keeps the secret in the private folder (0700, file 0600), stable across calls, not beside the database", () => {
    const db = path.join(tmp, "shared", "pal.db");
    fs.mkdirSync(path.dirname(db));
    // A file planted beside the database (the old location) must not fix the secret.
    fs.writeFileSync(path.join(path.dirname(db), "auth-secret"), "planted-planted-planted-planted-planted", { mode: 0o600 });
    const s = authSecret(env, db);
    expect(s).not.toContain("planted");
    expect(s.length).toBeGreaterThanOrEqual(32);
    expect(authSecret(env, db)).toBe(s);
    expect(path.dirname(secretFile(db, env))).toBe(path.join(tmp, "private"));
    expect(mode(path.join(tmp, "private"))).toBe(0o700);
    expect(mode(secretFile(db, env))).toBe(0o600);
  });

  it("gives two databases two secrets, so their sessions are not interchangeable", () => {
    expect(authSecret(env, path.join(tmp, "a.db"))).not.toBe(authSecret(env, path.join(tmp, "b.db")));
  });

  it("refuses a secret file that others can read, or that another user owns", () => {
    const db = path.join(tmp, "a.db");
    authSecret(env, db);
    const file = secretFile(db, env);
    fs.chmodSync(file, 0o644);
    expect(() => authSecret(env, db)).toThrow(/mode 0644; it must be 0600/);
    fs.chmodSync(file, 0o600);
    if (process.getuid?.() === 0) {
      fs.chownSync(file, 12345, 12345);
      expect(() => authSecret(env, db)).toThrow(/owned by uid 12345/);
    }
  });

  it("refuses a private folder that others can enter", () => {
    fs.mkdirSync(env.PAL_PRIVATE_DIR!, { mode: 0o755 });
    fs.chmodSync(env.PAL_PRIVATE_DIR!, 0o755);
    expect(() => authSecret(env, path.join(tmp, "a.db"))).toThrow(/mode 0755; it must be 0700/);
  });

  it("NEXTAUTH_SECRET wins and writes nothing", () => {
    expect(authSecret({ ...env, NEXTAUTH_SECRET: "from-env" }, path.join(tmp, "a.db"))).toBe("from-env");
    expect(fs.existsSync(env.PAL_PRIVATE_DIR!)).toBe(false);
  });
});

describe("openDb", () => {
  it("creates the database file readable by its owner only", () => {
    const file = path.join(tmp, "new.db");
    const db = openDb(file);
    db.$client.close();
    expect(mode(file)).toBe(0o600);
  });
});
