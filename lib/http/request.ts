/** Small request helpers for JSON route handlers: a capped JSON body and a numeric id from the path. */
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { readCappedText } from "./body";

/** The body parsed as JSON (at most `maxBytes`); malformed JSON is a 400 naming the body. */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const text = await readCappedText(req, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInputError("body: not valid JSON");
  }
}

/** A path id: anything but a positive whole number is a 404 (the resource cannot exist). */
export function idParam(raw: string, what: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw new NotFoundError(`no ${what} ${JSON.stringify(raw)}`);
  return n;
}
