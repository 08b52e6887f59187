/**
 * The registered external methods (issue 41), read and written. A method is a name, a label, a base URL
 * and optional request headers; the headers are secrets (often the service's own API key), encrypted at
 * rest like the endpoints' keys and never shown again (`list` says only which header names are set).
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { decryptSecret, encryptSecret } from "@/lib/llm/secrets";

/** A method as the client uses it: with its headers in plain text. */
export type ExternalMethod = { name: string; label: string; url: string; headers: Record<string, string>; timeoutMs: number };

/** A method as lists show it: header names only. */
export type PublicExternalMethod = Omit<ExternalMethod, "headers"> & { headerNames: string[]; createdAt: number };

type Row = { name: string; label: string; url: string; headers_enc: string | null; timeout_ms: number; created_at: number };

/** Lower-case names that read well in `--method a,b` lists and ledger purposes (no comma, no colon). */
export const METHOD_NAME = /^[a-z][a-z0-9_-]{0,39}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** RFC 9110 field values: visible ASCII, space, tab, Latin-1 (what fetch sends); no control character, no CR/LF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers fetch itself sets or refuses (framing, the host, the body's type): a method's would break every request. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "expect",
  "te",
  "trailer",
  "content-type",
  "accept",
]);

export const methodInput = z.object({
  name: z.string().regex(METHOD_NAME, "a lower-case name of letters, digits, - and _ (at most 40), starting with a letter"),
  // The label names the method's results: an experiment's method label (lib/experiments/config.ts).
  label: z
    .string()
    .trim()
    .max(80)
    .regex(/^[\w.@+-]+$/, "letters, digits and . @ + - _ only (it names the method's results)")
    .optional(),
  url: z
    .string()
    .max(2000)
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), "an http:// or https:// URL")
    // URLs are shown in lists: a credential goes in a header (stored encrypted), never in the URL.
    .refine((u) => !new URL(u).username && !new URL(u).password, "no user:password@ in the URL: send a credential as a --header")
    // The protocol's paths are appended to it ("?k=v" + "/respond" is no path), and URLs are shown in lists.
    .refine(
      (u) => !/[?#]/.test(u),
      "a base URL without ?query or #fragment (the paths are appended to it; a credential goes in a --header)",
    ),
  headers: z
    .record(
      z.string(),
      z.string().max(4000).regex(HEADER_VALUE, "a header value of visible characters on one line (no control characters; Latin-1 at most)"),
    )
    .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
    // Names checked here rather than as the record's key schema, whose failure says only "Invalid key in record".
    .superRefine((h, ctx) => {
      for (const k of Object.keys(h)) {
        const why = !HEADER_NAME.test(k)
          ? "a header name: letters, digits and !#$%&'*+.^_`|~- (at most 100)"
          : RESERVED_HEADERS.has(k.toLowerCase())
            ? "a header set by PAL Studio (or by HTTP itself), not by a method"
            : null;
        if (why) ctx.addIssue({ code: "custom", path: [k.slice(0, 100)], message: why });
      }
    })
    .default({}),
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(120_000),
});
export type MethodInput = z.input<typeof methodInput>;

/** "K: V" (as curl's -H) into a name and a value; an error names the header as given. */
export function parseHeader(text: string): [string, string] {
  const i = text.indexOf(":");
  if (i <= 0) throw new InvalidInputError(`--header "${text.slice(0, 60)}": expected "Name: value"`);
  return [text.slice(0, i).trim(), text.slice(i + 1).trim()];
}

/** Saves a new method; `reserved` are the names already taken by built-in methods. */
export function addExternalMethod(db: Db, input: MethodInput, reserved: readonly string[]): PublicExternalMethod {
  const r = methodInput.safeParse(input);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`method ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  const m = r.data;
  if (reserved.includes(m.name)) throw new ConflictError(`"${m.name}" is a built-in method's name: pick another`);
  if (getRow(db, m.name)) throw new ConflictError(`a method named "${m.name}" is already registered (pal methods remove ${m.name} first)`);
  const headers = Object.keys(m.headers).length ? encryptSecret(JSON.stringify(m.headers)) : null;
  stmt(db, "INSERT INTO external_methods (name, label, url, headers_enc, timeout_ms) VALUES (?, ?, ?, ?, ?)").run(
    m.name,
    m.label ?? m.name,
    m.url.replace(/\/+$/, ""),
    headers,
    m.timeoutMs,
  );
  return toPublic(getRow(db, m.name)!);
}

export function removeExternalMethod(db: Db, name: string): void {
  const r = stmt(db, "DELETE FROM external_methods WHERE name = ?").run(name);
  if (!r.changes) throw new NotFoundError(`no external method named "${name}"`);
}

export function listExternalMethods(db: Db): PublicExternalMethod[] {
  return (stmt(db, "SELECT * FROM external_methods ORDER BY name").all() as Row[]).map(toPublic);
}

/** The method with its headers decrypted, or null when no method has that name. */
export function findExternalMethod(db: Db, name: string): ExternalMethod | null {
  if (!METHOD_NAME.test(name)) return null;
  const row = getRow(db, name);
  if (!row) return null;
  const headers = row.headers_enc ? (JSON.parse(decryptSecret(row.headers_enc)) as Record<string, string>) : {};
  return { name: row.name, label: row.label, url: row.url, headers, timeoutMs: row.timeout_ms };
}

function getRow(db: Db, name: string): Row | undefined {
  return stmt(db, "SELECT * FROM external_methods WHERE name = ?").get(name) as Row | undefined;
}

function toPublic(row: Row): PublicExternalMethod {
  const headerNames = row.headers_enc ? Object.keys(JSON.parse(decryptSecret(row.headers_enc)) as object) : [];
  return { name: row.name, label: row.label, url: row.url, timeoutMs: row.timeout_ms, headerNames, createdAt: row.created_at };
}
