import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";
import { envValue } from "@/lib/config";

/**
 * API keys saved in the app are encrypted at rest (AES-256-GCM). The key is PAL_SECRET_KEY (any
 * string; hashed to 32 bytes) or, when unset, a random key generated once into `secret-key` beside
 * the database (mode 0600), so a copied database file alone does not reveal the keys.
 */
function secretKey(): Buffer {
  const env = envValue("PAL_SECRET_KEY");
  if (env) return crypto.createHash("sha256").update(env).digest();
  const file = path.join(path.dirname(databasePath()), "secret-key");
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const key = crypto.randomBytes(32);
    try {
      fs.writeFileSync(file, key.toString("base64"), { mode: 0o600, flag: "wx" });
      return key;
    } catch {
      return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64"); // another process won the race
    }
  }
}

/** "v1:<iv>:<tag>:<ciphertext>", base64url parts. */
export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", secretKey(), iv);
  const data = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv, c.getAuthTag(), data].map((x) => (typeof x === "string" ? x : x.toString("base64url"))).join(":");
}

export function decryptSecret(stored: string): string {
  const [v, iv, tag, data] = stored.split(":");
  if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("stored API key has an unknown format");
  const d = crypto.createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(data, "base64url")), d.final()]).toString("utf8");
}
