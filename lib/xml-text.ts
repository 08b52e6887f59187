/**
 * Text that goes into an XML or HTML file we write (the Figure 4 SVG and HTML, the case-study HTML).
 * XML 1.0 allows only tab, line feed, carriage return and the characters from U+0020 up, except lone
 * surrogates and U+FFFE/U+FFFF: one U+0001 in a note made the whole SVG "not XML" (Chromium shows an
 * error page instead of the figure). Exports strip those characters; the inputs that people type (mark
 * notes, star notes and tags) refuse them, so what is stored is what a figure shows.
 */
import { InvalidInputError } from "@/lib/errors";

// With the `u` flag a lone surrogate is one code point outside every allowed range.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Refused at input besides: DEL and the C1 controls (allowed by XML 1.0, never meant in a note). */
const NOT_TYPED = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** `s` without the characters XML 1.0 does not allow. */
export const xmlSafe = (s: string): string => s.replace(NOT_XML, "");

/** `s` as XML/HTML text or attribute value: disallowed characters dropped, `& < > "` as entities. */
export const escapeXml = (s: string): string =>
  xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Refuses text a person typed that holds a control character, naming the field and the character. */
export function refuseControlChars<T extends string | null | undefined>(field: string, s: T): T {
  const bad = s ? NOT_TYPED.exec(s) : null;
  if (bad)
    throw new InvalidInputError(
      `${field}: holds the control character U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}, which no figure or export can show; remove it`,
    );
  return s;
}
