import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";

/**
 * The session-signing secret: NEXTAUTH_SECRET when set, else one generated once and kept next to
 * the database, so the embedded default works without configuration and survives restarts.
 */
export function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(path.dirname(databasePath()), "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}
