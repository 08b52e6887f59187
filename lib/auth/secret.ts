import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databasePath, projectRoot } from "@/db/client";
import type { Env } from "./origin";
import { envValue } from "@/lib/config";

/**
 * The folder for files only this app's user may read: PAL_PRIVATE_DIR, else `data/private` under the
 * project. Never the database's folder: a database in a shared folder (/tmp) would let anyone plant
 * the secret there beforehand.
 */
export function privateDir(env: Env = process.env): string {
  const d = envValue("PAL_PRIVATE_DIR", env) ?? path.join(/*turbopackIgnore: true*/ projectRoot(), "data", "private");
  return path.resolve(d);
}

/** A short id of a database file: secrets are per database, so two instances never share one. */
function databaseId(db: string): string {
  return crypto.createHash("sha256").update(path.resolve(db)).digest("hex").slice(0, 16);
}

/** One secret per database: two instances on different databases must not accept each other's sessions. */
export function secretFile(db: string = databasePath(), env: Env = process.env): string {
  return path.join(privateDir(env), `auth-secret-${databaseId(db)}`);
}

/** The key that encrypts the model API keys saved in this database (see lib/llm/secrets). */
export function apiKeyFile(db: string = databasePath(), env: Env = process.env): string {
  return path.join(privateDir(env), `api-key-secret-${databaseId(db)}`);
}

const octal = (m: number) => m.toString(8).padStart(4, "0");

/** Refuses a file (or folder) that someone else owns. */
export function checkOwner(p: string, st: fs.Stats): void {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new Error(`${p} is owned by uid ${st.uid}, not by this process (uid ${uid}); refusing to use it`);
}

/** Refuses a secret (or its folder) that someone else owns or could read or replace. */
function checkPrivate(p: string, st: fs.Stats, mode: number): void {
  checkOwner(p, st);
  if ((st.mode & 0o777) !== mode) {
    throw new Error(`${p} has mode ${octal(st.mode & 0o777)}; it must be ${octal(mode)} (chmod ${mode.toString(8)} ${p})`);
  }
}

/** The private folder, created 0700 when missing and refused when another user owns it or others may enter it. */
export function ensurePrivateDir(env: Env = process.env): string {
  const dir = privateDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir, fs.statSync(dir), 0o700);
  return dir;
}

/**
 * The trimmed content of a file in the private folder, or null when there is none. The file must be
 * a regular file (no symlink), owned by this user, mode 0600; anything else is refused.
 */
export function readPrivateFile(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    checkPrivate(file, fs.fstatSync(fd), 0o600);
    return fs.readFileSync(fd, "utf8").trim();
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates a private file (0600) unless it exists; false when another process made it first. */
export function createPrivateFile(file: string, content: string): boolean {
  try {
    fs.writeFileSync(file, content, { mode: 0o600, flag: "wx" });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}

/**
 * The session-signing secret: NEXTAUTH_SECRET when set, else one generated once and kept in the
 * private folder (0700, file 0600), so the embedded default works without configuration and survives
 * restarts. A file with another owner or mode is refused rather than trusted.
 */
export function authSecret(env: Env = process.env, db: string = databasePath()): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  ensurePrivateDir(env);
  const file = secretFile(db, env);
  let secret = readPrivateFile(file);
  if (secret === null) {
    const made = crypto.randomBytes(32).toString("base64url");
    if (createPrivateFile(file, made)) return made;
    secret = readPrivateFile(file) ?? ""; // another process won the race
  }
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (delete it to make a new one)`);
  return secret;
}

/**
 * Signs everyone out of the database `db` by discarding its session secret (a new one is made at the
 * next start). A restore needs it: the restored file's list of revoked sessions is as old as the backup,
 * so sessions signed out after it would be valid again. False when NEXTAUTH_SECRET is set: that secret
 * is the operator's, and only they can change it.
 */
export function rotateAuthSecret(db: string, env: Env = process.env): boolean {
  if (env.NEXTAUTH_SECRET) return false;
  fs.rmSync(secretFile(db, env), { force: true });
  return true;
}
