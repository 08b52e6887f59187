/**
 * Where to go after signing in: only a path of this app. The callback is resolved the way the
 * browser will resolve it (a URL parser, which turns `\` into `/` and drops tabs and newlines), so
 * tricks such as `/\evil.example/x` or `/<tab>/evil.example` that look like paths but are
 * protocol-relative URLs end up on the home page instead of on another site.
 */
const BASE = "http://app.invalid";

export function safeCallbackPath(callbackUrl: string | null | undefined, fallback = "/"): string {
  if (!callbackUrl) return fallback;
  let url: URL;
  try {
    url = new URL(callbackUrl, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
