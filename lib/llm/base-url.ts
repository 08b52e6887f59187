import { InvalidInputError } from "@/lib/errors";

/**
 * A base URL an endpoint or role may be saved with: http(s), no white space, and no `user:pass@`. Saved
 * URLs are shown in plain text (Admin → Models, `pal models`) and travel in backups, so credentials in
 * them would leak; the key field (encrypted at rest) is where a credential goes. `what` names the
 * record in the error.
 */
export function checkBaseUrl(what: string, baseUrl: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new InvalidInputError(`${what}: base URL "${baseUrl}" is not an http(s) URL`);
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new InvalidInputError(`${what}: base URL "${baseUrl}" is not an http(s) URL`);
  }
  if (u.username || u.password || /^https?:\/\/[^/?#]*@/.test(baseUrl))
    throw new InvalidInputError(
      `${what}: the base URL holds a user name or password (user:pass@host); remove it and enter the credential as the API key, which is stored encrypted`,
    );
  return baseUrl;
}
