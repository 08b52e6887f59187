import { InvalidInputError } from "@/lib/errors";
import { MASK, redactSecrets } from "./redact";

/** Query parameters that carry a credential (`?api_key=`, `?access_token=`, `?key=`, a signature). */
const SECRET_PARAM = /key|token|secret|passw|auth|sig|credential/i;

/**
 * A base URL an endpoint or role may be saved with: http(s), no white space, no `user:pass@` and no
 * credential in the query string (`?api_key=sk-…`). Saved URLs are shown in plain text (Admin → Models,
 * `pal models`) and travel in backups, so credentials in them would leak; the key field (encrypted at
 * rest) is where a credential goes. Other query parameters (Azure's `api-version`) are kept. `what`
 * names the record in the error.
 */
export function checkBaseUrl(what: string, baseUrl: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new InvalidInputError(`${what}: base URL "${maskUrl(baseUrl)}" is not an http(s) URL`);
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new InvalidInputError(`${what}: base URL "${maskUrl(baseUrl)}" is not an http(s) URL`);
  }
  if (u.username || u.password || /^https?:\/\/[^/?#]*@/.test(baseUrl))
    throw new InvalidInputError(
      `${what}: the base URL holds a user name or password (user:pass@host); remove it and enter the credential as the API key, which is stored encrypted`,
    );
  const secret = [...u.searchParams.entries()].find(([k, v]) => SECRET_PARAM.test(k) || redactSecrets(v) !== v);
  if (secret)
    throw new InvalidInputError(
      `${what}: the base URL's query string holds a credential ("${secret[0]}=…"); remove it and enter the key as the API key, which is stored encrypted (a URL is shown in plain text and kept in backups)`,
    );
  return baseUrl;
}

/**
 * A URL as it may be shown or logged: a user name or password, and every credential-shaped query value,
 * masked (URLs saved before credentials were refused in them, or a redirect's target).
 */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redactSecrets(url);
  }
  if (u.username) u.username = MASK;
  if (u.password) u.password = MASK;
  for (const [k, v] of [...u.searchParams.entries()]) if (SECRET_PARAM.test(k) || redactSecrets(v) !== v) u.searchParams.set(k, MASK);
  // URL encodes the mask; shown as written. A URL with nothing masked is given back as it came.
  const out = u.href.replaceAll(encodeURIComponent(MASK), MASK);
  return out === u.href && !out.includes(MASK) ? url : redactSecrets(out);
}
