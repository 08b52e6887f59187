import { NextRequest } from "next/server";
import { isAppError } from "@/lib/errors";
import { readCappedText } from "@/lib/http/body";

/** Largest sign-in request body (a CSRF token, an email, a password and a few flags fit in far less). */
export const LOGIN_BODY_LIMIT = 16 * 1024;

/**
 * The sign-in request with its body read under the limit (next-auth reads it again from the copy),
 * or a 413 answer: a larger body never reaches next-auth or the database.
 */
export async function capLoginBody(req: NextRequest): Promise<NextRequest | Response> {
  try {
    const body = await readCappedText(req, LOGIN_BODY_LIMIT);
    return new NextRequest(req.url, { method: req.method, headers: req.headers, body });
  } catch (e) {
    if (isAppError(e)) return Response.json({ error: e.message, code: e.code }, { status: e.status });
    throw e;
  }
}
