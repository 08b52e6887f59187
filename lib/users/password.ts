import bcrypt from "bcryptjs";
import crypto from "node:crypto";

const ROUNDS = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** A readable random password (about 80 bits). */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString("base64url").slice(0, 16);
}
