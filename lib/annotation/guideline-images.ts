/**
 * Images in campaign guidelines: only this app's own files (a same-origin path) and inline `data:image/`
 * URLs are loaded. An image from another site would tell that site who opens the guidelines and when
 * (the annotators' IP addresses, a tracking pixel), so such an image is shown as a link instead.
 */
const BASE = "http://app.invalid";

export function isInlineImageSrc(src: string | undefined | null): boolean {
  const s = src?.trim();
  if (!s) return false;
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(s)) return true;
  // Any scheme (http:, https:, ftp:, data:text/html, javascript:) is another site or not an image.
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return false;
  let url: URL;
  try {
    url = new URL(s, BASE);
  } catch {
    return false;
  }
  // A relative path must stay on the app, and not turn into `//other.site` (e.g. `/\other`, `/.//other`).
  return url.origin === BASE && !url.pathname.startsWith("//");
}
