import bcrypt from "bcryptjs";
import crypto from "node:crypto";

const ROUNDS = 10;

/** bcrypt ignores everything after the first 72 bytes of a password. */
export const MAX_PASSWORD_BYTES = 72;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/**
 * True when `password` is the one hashed. bcrypt would accept the stored password followed by any
 * suffix (it reads 72 bytes only), so a longer password never matches: no stored password is longer
 * (createUser refuses them). The hash is compared anyway, so the answer takes the same time.
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash);
  return ok && Buffer.byteLength(password, "utf8") <= MAX_PASSWORD_BYTES;
}

/** A readable random password (about 80 bits). */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString("base64url").slice(0, 16);
}
