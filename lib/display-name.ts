import { InvalidInputError } from "@/lib/errors";

/** Line breaks, tabs and other control characters; bidirectional overrides and isolates (U+202E turns "gpj.exe" into "exe.jpg" on screen). */
const UNSAFE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * A name people read in lists, headings, exports and the CLI (data sets, campaigns): trimmed, 1 to
 * `max` characters, one line, and no characters that reorder or hide the text around them. The error
 * names the field and the rule; nothing is stored.
 */
export function checkDisplayName(field: string, raw: string | null | undefined, max = 200): string {
  const name = (raw ?? "").trim();
  if (!name) throw new InvalidInputError(`${field}: required`);
  if ([...name].length > max) throw new InvalidInputError(`${field}: at most ${max} characters (got ${[...name].length})`);
  const bad = name.match(UNSAFE);
  if (bad)
    throw new InvalidInputError(
      `${field}: a name is one line of visible text; it holds the control character U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`,
    );
  return name;
}
