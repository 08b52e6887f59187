/**
 * Cross-site request forgery guard: a state-changing request (anything but GET/HEAD/OPTIONS) is
 * accepted only when the browser says it comes from the app's own pages. A cookie alone proves
 * nothing, since the browser attaches it to requests that other sites' pages trigger.
 *
 * - `Origin` present: it must be the app's origin, scheme included (NEXTAUTH_URL's when set, which is
 *   what the browser sees behind a reverse proxy; or http:// plus the request's own Host, i.e. a
 *   same-origin request).
 *   `Origin: null` (sandboxed frames, opaque redirects) is refused.
 * - `Origin` absent: `Sec-Fetch-Site` must be `same-origin` or `none` (typed by the user).
 * - Neither header: refused. Browsers always send one of them; a script or curl must send
 *   `Origin: <the app's URL>` explicitly (the API exists for the app's own pages).
 *
 * Pure (headers in, verdict out) so that proxy.ts (server actions) and withRole (route handlers)
 * apply the same rule.
 */
import { envFlag, type Env } from "@/lib/config";
/** Environment variables (process.env or a test's own). */
export type { Env } from "@/lib/config";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

/** True when X-Forwarded-* headers come from a reverse proxy we run, not from the client. */
export function trustProxy(env: Env = process.env): boolean {
  return envFlag("PAL_TRUST_PROXY", env);
}

/**
 * The origins (scheme://host:port) the app is served under: NEXTAUTH_URL's, and the request's own
 * Host with the scheme it arrived over. `next start` speaks plain HTTP, so that scheme is http unless
 * a trusted reverse proxy says otherwise (X-Forwarded-Proto). The scheme matters: a page served over
 * https on the same host and port is another origin and may not write here.
 */
export function appOrigins(headers: Headers, env: Env = process.env): string[] {
  const origins: string[] = [];
  if (env.NEXTAUTH_URL) {
    try {
      origins.push(new URL(env.NEXTAUTH_URL).origin.toLowerCase());
    } catch {
      /* a broken NEXTAUTH_URL is next-auth's error to report */
    }
  }
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim().toLowerCase() || undefined;
  const proto = (trustProxy(env) ? first("x-forwarded-proto") : undefined) ?? "http";
  for (const host of [headers.get("host")?.trim().toLowerCase(), trustProxy(env) ? first("x-forwarded-host") : undefined]) {
    if (!host) continue;
    try {
      origins.push(new URL(`${proto}://${host}`).origin);
    } catch {
      /* a Host header that is no host: nothing to allow */
    }
  }
  return origins;
}

/** The origin a browser sent, normalised (lower case, default port dropped), or null when it is none. */
function parseOrigin(origin: string): string | null {
  if (origin === "null") return null;
  try {
    const o = new URL(origin).origin;
    return o === "null" ? null : o.toLowerCase();
  } catch {
    return null;
  }
}

export function checkSameOrigin(method: string, headers: Headers, env: Env = process.env): OriginVerdict {
  if (SAFE_METHODS.has(method.toUpperCase())) return { ok: true };
  const origin = headers.get("origin");
  if (origin !== null) {
    const o = parseOrigin(origin);
    if (o && appOrigins(headers, env).includes(o)) return { ok: true };
    return { ok: false, reason: `cross-site request refused (Origin "${origin.slice(0, 100)}" is not this app)` };
  }
  const site = headers.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return { ok: true };
  if (site) return { ok: false, reason: `cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 40)})` };
  return { ok: false, reason: "cross-site request refused: send an Origin header with this app's URL" };
}

/** The media type of a request body, lower-case, without parameters ("" when there is none). */
export function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** True when the request carries a body (a declared length above 0, or a chunked body). */
export function hasBody(headers: Headers): boolean {
  const len = headers.get("content-length");
  if (len !== null) return Number(len) > 0;
  return headers.has("transfer-encoding");
}
