/**
 * Where to go after signing in: only a path of this app. The callback is resolved against the app's
 * origin the way the browser will resolve it (the WHATWG URL parser, which turns `\` into `/`, drops
 * tabs and newlines and collapses `.`/`..` segments), and the result must have the app's origin.
 *
 * Resolving once is not enough: `/.//evil.example` resolves to the path `//evil.example`, which is a
 * protocol-relative URL when the browser resolves it again (`window.location.assign`). So the path we
 * hand out is resolved a second time and must come back unchanged with the same origin; anything else
 * goes to the fallback.
 */
const FALLBACK_ORIGIN = "http://app.invalid";

/** The app's origin: NEXTAUTH_URL's when it is set and valid (full same-origin URLs are then kept). */
export function appOrigin(env: Record<string, string | undefined> = process.env): string {
  try {
    if (env.NEXTAUTH_URL) return new URL(env.NEXTAUTH_URL).origin;
  } catch {
    /* a broken NEXTAUTH_URL is next-auth's error to report */
  }
  return FALLBACK_ORIGIN;
}

/** The path, query and fragment of `value` resolved against `origin`, or null when it leaves the origin. */
function resolvePath(value: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function safeCallbackPath(callbackUrl: string | null | undefined, fallback = "/", origin: string = appOrigin()): string {
  if (!callbackUrl) return fallback;
  const once = resolvePath(callbackUrl, origin);
  if (once === null) return fallback;
  // The browser resolves our answer again: it must be a fixed point on the same origin.
  const twice = resolvePath(once, origin);
  if (twice !== once || !once.startsWith("/") || once.startsWith("//")) return fallback;
  return once;
}
