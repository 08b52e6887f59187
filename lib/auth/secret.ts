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

/** One secret per database: two instances on different databases must not accept each other's sessions. */
export function secretFile(db: string = databasePath(), env: Env = process.env): string {
  const id = crypto.createHash("sha256").update(path.resolve(db)).digest("hex").slice(0, 16);
  return path.join(privateDir(env), `auth-secret-${id}`);
}

/** Refuses a secret (or its folder) that someone else owns or could read or replace. */
function checkPrivate(p: string, st: fs.Stats, mode: number): void {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new Error(`${p} is owned by uid ${st.uid}, not by this process (uid ${uid}); refusing to use it`);
  if ((st.mode & 0o777) !== mode) {
    throw new Error(
      `${p} has mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}; it must be ${mode.toString(8).padStart(4, "0")} (chmod ${mode.toString(8)} ${p})`,
    );
  }
}

/**
 * The session-signing secret: NEXTAUTH_SECRET when set, else one generated once and kept in the
 * private folder (0700, file 0600), so the embedded default works without configuration and survives
 * restarts. A file with another owner or mode is refused rather than trusted.
 */
export function authSecret(env: Env = process.env, db: string = databasePath()): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  const dir = privateDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir, fs.statSync(dir), 0o700);
  const file = secretFile(db, env);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
  try {
    checkPrivate(file, fs.fstatSync(fd), 0o600);
    const secret = fs.readFileSync(fd, "utf8").trim();
    if (secret.length < 32) throw new Error(`${file} holds no usable secret (delete it to make a new one)`);
    return secret;
  } finally {
    fs.closeSync(fd);
  }
}
