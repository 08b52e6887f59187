/**
 * The element id a URL fragment names (`#log-3`, `#%E8%AF%9D` for non-ASCII ids). A fragment with a
 * broken percent-escape (anyone can type or link one) is used as it is instead of throwing.
 */
export function hashTargetId(hash: string): string {
  const raw = hash.startsWith("#") ? hash.slice(1) : hash;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
