/** Small display helpers shared by server and client components (no server-only imports). */

const nf = new Intl.NumberFormat("en-US");

export function fmtCount(n: number | null | undefined): string {
  return n == null ? "–" : nf.format(n);
}

/** "2024-01-12" from epoch ms, an ISO/`YYYY-MM-DD hh:mm` string, or null. */
export function fmtDay(v: number | string | null | undefined): string {
  if (v == null || v === "") return "–";
  if (typeof v === "string") return v.slice(0, 10);
  return new Date(v).toISOString().slice(0, 10);
}

/** "2024-01-12 20:00" from epoch ms or a timestamp string. */
export function fmtMinute(v: number | string | null | undefined): string {
  if (v == null || v === "") return "–";
  if (typeof v === "string") return v.slice(0, 16);
  return new Date(v).toISOString().slice(0, 16).replace("T", " ");
}

/** "2024-01-01 → 2024-06-28" (or one day). */
export function fmtSpan(first: number | string | null | undefined, last: number | string | null | undefined): string {
  const a = fmtDay(first);
  const b = fmtDay(last);
  if (a === "–" && b === "–") return "–";
  return a === b ? a : `${a} → ${b}`;
}

/** Days between two instants (inclusive of both ends), or null. */
export function spanDays(first: number | string | null | undefined, last: number | string | null | undefined): number | null {
  const toMs = (v: number | string | null | undefined) => (typeof v === "number" ? v : v ? Date.parse(v.slice(0, 10)) : NaN);
  const a = toMs(first);
  const b = toMs(last);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return Math.round((b - a) / 86_400_000) + 1;
}

/** `import` is both a route segment of the upload page and a word: never an id. */
export function datasetHref(id: number | string) {
  return `/datasets/${id}`;
}
export function userHref(datasetId: number | string, userKey: string) {
  return `/datasets/${datasetId}/users/${encodeURIComponent(userKey)}`;
}
export function sessionHref(datasetId: number | string, userKey: string, sampleKey: string) {
  return `${userHref(datasetId, userKey)}/sessions/${encodeURIComponent(sampleKey)}`;
}
export function topicHref(datasetId: number | string, userKey: string, sampleKey: string, topicKey: string) {
  return `${sessionHref(datasetId, userKey, sampleKey)}/topics/${encodeURIComponent(topicKey)}`;
}
export function qaHref(datasetId: number | string, params: Record<string, string | number | undefined> = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return `/datasets/${datasetId}/qa${s ? `?${s}` : ""}`;
}
/** The anchor id of a topic on its session page: "topic-1" stays "topic-1". */
export function topicAnchor(topicKey: string): string {
  return topicKey.startsWith("topic-") ? topicKey : `topic-${topicKey}`;
}
export function dialogueAnchor(dialogueKey: string): string {
  return `dialogue-${dialogueKey.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** A count key as words: "candidateSolutions" → "candidate solutions", "logType.web_search" → "log type: web search". */
export function humanKey(key: string): string {
  return key
    .replace(/\./g, ": ")
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
}
