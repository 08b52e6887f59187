import { rememberSecret } from "./redact";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";
import { apiKeyFile, checkOwner, createPrivateFile, ensurePrivateDir, readPrivateFile } from "@/lib/auth/secret";
import type { Env } from "@/lib/auth/origin";
import { AppError } from "@/lib/errors";

/**
 * API keys saved in the app are encrypted at rest (AES-256-GCM). The key is PAL_SECRET_KEY (any
 * string; hashed to 32 bytes) or, when unset, a random key generated once into the private folder
 * beside the session secret (`api-key-secret-<database id>`, folder 0700, file 0600, owned by this
 * user; anything else is refused). It is never beside the database: a copied data folder must not
 * decrypt the keys, and a key planted there by someone else must not be used.
 */

/** A saved key that the current encryption key cannot open (PAL_SECRET_KEY or the key file changed). */
export class SavedKeyUnreadableError extends AppError {
  constructor(message: string) {
    super(message, 409, "key_unreadable");
  }
}

/** Where the key used to live (before it moved to the private folder). */
export function legacyKeyFile(db: string = databasePath()): string {
  return path.join(path.dirname(db), "secret-key");
}

function decodeKey(text: string, file: string): Buffer {
  const key = Buffer.from(text, "base64");
  if (key.length !== 32)
    throw new Error(`${file} holds no usable 32-byte key (base64); restore it, or delete it and re-enter the saved API keys`);
  return key;
}

/**
 * A `secret-key` left beside the database by an older version moves into the private folder (the
 * saved API keys stay readable). One owned by another user is refused, not moved: it may have been
 * planted to fix the key.
 */
function migrateLegacyKey(file: string, db: string): Buffer | null {
  const legacy = legacyKeyFile(db);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(legacy);
  } catch {
    return null;
  }
  if (!st.isFile()) throw new Error(`${legacy} is not a regular file; refusing to use it as the API-key encryption key`);
  checkOwner(legacy, st);
  const text = fs.readFileSync(legacy, "utf8").trim();
  const key = decodeKey(text, legacy);
  if (!createPrivateFile(file, key.toString("base64"))) return null; // another process moved it first
  fs.rmSync(legacy, { force: true });
  const loose = (st.mode & 0o077) !== 0;
  console.warn(
    `pal: moved the API-key encryption key ${legacy} to ${file} (private folder, mode 0600).` +
      (loose ? ` It had mode ${(st.mode & 0o777).toString(8)}: if others could read it, re-enter the saved API keys.` : ""),
  );
  return key;
}

/** The 32-byte encryption key (see the comment at the top). */
export function secretKey(env: Env = process.env, db: string = databasePath()): Buffer {
  if (env.PAL_SECRET_KEY) return crypto.createHash("sha256").update(env.PAL_SECRET_KEY).digest();
  ensurePrivateDir(env);
  const file = apiKeyFile(db, env);
  const text = readPrivateFile(file);
  if (text !== null) return decodeKey(text, file);
  const migrated = migrateLegacyKey(file, db);
  if (migrated) return migrated;
  const key = crypto.randomBytes(32);
  if (createPrivateFile(file, key.toString("base64"))) return key;
  return decodeKey(readPrivateFile(file) ?? "", file); // another process won the race
}

/** The key, with a refusal (a file with another owner or mode) as an expected error the page and CLI show. */
function usableKey(): Buffer {
  try {
    return secretKey();
  } catch (e) {
    throw new SavedKeyUnreadableError(`API-key encryption key: ${(e as Error).message}`);
  }
}

/** "v1:<iv>:<tag>:<ciphertext>", base64url parts. */
export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", usableKey(), iv);
  const data = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv, c.getAuthTag(), data].map((x) => (typeof x === "string" ? x : x.toString("base64url"))).join(":");
}

/** The saved key in plain text; SavedKeyUnreadableError when the encryption key is not the one it was saved with. */
export function decryptSecret(stored: string, key: Buffer = usableKey()): string {
  const [v, iv, tag, data] = stored.split(":");
  if (v !== "v1" || !iv || !tag || data === undefined)
    throw new SavedKeyUnreadableError("saved API key has an unknown format: re-enter it");
  try {
    const d = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    d.setAuthTag(Buffer.from(tag, "base64url"));
    const plain = Buffer.concat([d.update(Buffer.from(data, "base64url")), d.final()]).toString("utf8");
    rememberSecret(plain); // so that an endpoint echoing it in an error never gets it stored (redact.ts)
    return plain;
  } catch {
    // GCM's tag check fails: the key differs from the one the value was encrypted with.
    throw new SavedKeyUnreadableError(
      "saved keys cannot be decrypted: re-enter them on Admin → Models (the encryption key changed: PAL_SECRET_KEY, or the key file in the private folder)",
    );
  }
}
