import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeyFile, secretFile } from "@/lib/auth/secret";
import type { Env } from "@/lib/auth/origin";
import { decryptSecret, encryptSecret, legacyKeyFile, SavedKeyUnreadableError, secretKey } from "./secrets";

let tmp: string;
let db: string;
let env: Env;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-apikey-"));
  db = path.join(tmp, "data", "pal.db");
  fs.mkdirSync(path.dirname(db));
  env = { PAL_PRIVATE_DIR: path.join(tmp, "private") };
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("the API-key encryption key", () => {
  it("is generated into the private folder beside the session secret (0700 / 0600), never beside the database", () => {
    const key = secretKey(env, db);
    expect(key).toHaveLength(32);
    const file = apiKeyFile(db, env);
    expect(path.dirname(file)).toBe(path.dirname(secretFile(db, env)));
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(fs.existsSync(legacyKeyFile(db))).toBe(false);
    expect(secretKey(env, db).equals(key)).toBe(true);
  });

  it("refuses a key file with another mode or owner, and a private folder others can enter", () => {
    secretKey(env, db);
    const file = apiKeyFile(db, env);
    fs.chmodSync(file, 0o666);
    expect(() => secretKey(env, db)).toThrow(/mode 0666; it must be 0600/);
    fs.chmodSync(file, 0o600);
    if (process.getuid?.() === 0) {
      fs.chownSync(file, 12345, 12345);
      expect(() => secretKey(env, db)).toThrow(/owned by uid 12345/);
      fs.chownSync(file, 0, 0);
    }
    fs.chmodSync(env.PAL_PRIVATE_DIR!, 0o755);
    expect(() => secretKey(env, db)).toThrow(/mode 0755; it must be 0700/);
  });

  it("moves an existing secret-key from beside the database into the private folder and says so; saved keys stay readable", () => {
    const old = Buffer.alloc(32, 7);
    fs.writeFileSync(legacyKeyFile(db), old.toString("base64"), { mode: 0o644 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const key = secretKey(env, db);
    expect(key.equals(old)).toBe(true);
    expect(fs.existsSync(legacyKeyFile(db))).toBe(false);
    expect(mode(apiKeyFile(db, env))).toBe(0o600);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/moved the API-key encryption key .*secret-key to .*api-key-secret-.*mode 644/s),
    );
    // Later calls read the moved key; a new planted file beside the database is ignored.
    fs.writeFileSync(legacyKeyFile(db), Buffer.alloc(32, 9).toString("base64"), { mode: 0o666 });
    expect(secretKey(env, db).equals(old)).toBe(true);
  });

  it("refuses an old secret-key owned by another user instead of moving it", () => {
    if (process.getuid?.() !== 0) return; // only root can give a file away
    fs.writeFileSync(legacyKeyFile(db), Buffer.alloc(32, 7).toString("base64"), { mode: 0o666 });
    fs.chownSync(legacyKeyFile(db), 12345, 12345);
    expect(() => secretKey(env, db)).toThrow(/owned by uid 12345/);
    expect(fs.existsSync(apiKeyFile(db, env))).toBe(false);
  });

  it("a value encrypted under another key is a clear SavedKeyUnreadableError, not a crypto exception", () => {
    vi.stubEnv("PAL_SECRET_KEY", "one");
    const stored = encryptSecret("sk-abc");
    expect(decryptSecret(stored)).toBe("sk-abc");
    vi.stubEnv("PAL_SECRET_KEY", "two");
    expect(() => decryptSecret(stored)).toThrow(SavedKeyUnreadableError);
    expect(() => decryptSecret(stored)).toThrow(/saved keys cannot be decrypted: re-enter them/);
  });
});
