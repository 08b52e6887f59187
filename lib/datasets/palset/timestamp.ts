/**
 * PAL-Set timestamps ("2024-01-12 20:00:00", logs "2024-01-01 09:15"). They carry no zone; we read
 * them as UTC so that ordering and date comparisons never depend on the machine's zone.
 * Tolerated variants: a `T` separator, `/` date separators, no seconds, fractions, a trailing `Z`,
 * and a bare date (midnight).
 */
const TS = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?Z?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two ASCII digits at i as a number, or -1. */
function d2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48,
    b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The published forms exactly ("YYYY-MM-DD HH:MM" and "YYYY-MM-DD HH:MM:SS"), without a regex or a
 * Date: an import parses ~100k of them, several times. Anything else goes the general way.
 */
function parseFast(s: string): number | null | undefined {
  const n = s.length;
  if ((n !== 16 && n !== 19) || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58)
    return undefined;
  if (n === 19 && s.charCodeAt(16) !== 58) return undefined;
  const y = d2(s, 0) * 100 + d2(s, 2),
    mo = d2(s, 5),
    d = d2(s, 8),
    h = d2(s, 11),
    mi = d2(s, 14);
  const se = n === 19 ? d2(s, 17) : 0;
  if (y < 0 || d2(s, 0) < 0 || d2(s, 2) < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59)
    return null;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS[mo - 1] + (leap ? 1 : 0)) return null;
  return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + se * 1000;
}

/** Epoch ms of a PAL-Set timestamp, or null when it is not one. */
export function parseTimestamp(s: string): number | null {
  const fast = parseFast(s);
  if (fast !== undefined) return fast;
  const m = TS.exec(s.trim());
  if (!m) return null;
  const y = +m[1],
    mo = +m[2],
    d = +m[3];
  const h = m[4] === undefined ? 0 : +m[4];
  const mi = m[5] === undefined ? 0 : +m[5];
  const se = m[6] === undefined ? 0 : +m[6];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  // Date.UTC rolls 2024-02-31 over into March: reject instead of guessing.
  if (new Date(ms).getUTCDate() !== d) return null;
  return ms;
}

export function isTimestamp(s: string): boolean {
  return parseTimestamp(s) !== null;
}

/** "YYYY-MM-DD" of an epoch ms (UTC), for matching profile entries keyed by date. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
