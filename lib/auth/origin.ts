/**
 * Cross-site request forgery guard: a state-changing request (anything but GET/HEAD/OPTIONS) is
 * accepted only when the browser says it comes from the app's own pages. A cookie alone proves
 * nothing, since the browser attaches it to requests that other sites' pages trigger.
 *
 * - `Origin` present: its host must be the app's (NEXTAUTH_URL's host when set, which is what the
 *   browser sees behind a reverse proxy; or the request's own Host, i.e. a same-origin request).
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

/** The hosts (host:port) the app is served under. */
export function appHosts(headers: Headers, env: Env = process.env): string[] {
  const hosts: string[] = [];
  if (env.NEXTAUTH_URL) {
    try {
      hosts.push(new URL(env.NEXTAUTH_URL).host.toLowerCase());
    } catch {
      /* a broken NEXTAUTH_URL is next-auth's error to report */
    }
  }
  const host = headers.get("host");
  if (host) hosts.push(host.toLowerCase());
  const fwd = trustProxy(env) ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  if (fwd) hosts.push(fwd.toLowerCase());
  return hosts;
}

export function checkSameOrigin(method: string, headers: Headers, env: Env = process.env): OriginVerdict {
  if (SAFE_METHODS.has(method.toUpperCase())) return { ok: true };
  const origin = headers.get("origin");
  if (origin !== null) {
    let host: string;
    try {
      host = new URL(origin).host.toLowerCase();
    } catch {
      return { ok: false, reason: `cross-site request refused (Origin "${origin.slice(0, 100)}" is not this app)` };
    }
    if (origin !== "null" && host && appHosts(headers, env).includes(host)) return { ok: true };
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
