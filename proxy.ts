import { NextResponse, type NextRequest } from "next/server";
import { checkSameOrigin } from "@/lib/auth/origin";

/**
 * Runs before routing. Its jobs:
 * - a URL with a broken percent-escape (e.g. `%E0%A4%A`) is the client's error: 400 here instead of
 *   a 500 from the router;
 * - a server action (a POST with `Next-Action`) from another origin: a clear 403 here. Next refuses
 *   those too, but by throwing, which answers 500.
 * Authentication is NOT done here: every page, route handler and server action checks the session
 * and role itself (route handlers also check the origin, in withRole).
 */
export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return new NextResponse("Bad request: the URL has a malformed percent-escape.\n", {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  if (request.method === "POST" && request.headers.has("next-action")) {
    const verdict = checkSameOrigin(request.method, request.headers);
    if (!verdict.ok) {
      return new NextResponse(`Forbidden: ${verdict.reason}.\n`, { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }
  return NextResponse.next();
}

/**
 * Not for static files, and not for the upload routes (data-set import, new campaign, judge verdicts):
 * when proxy runs, Next buffers the request body in memory (and cuts it at 10 MB) so that proxy could
 * read it; uploads of hundreds of MB must stream straight to the handler instead. Those paths have no
 * escapes to check (the campaign id is digits only) and their handlers check the origin themselves
 * (withRole). A new upload route must be added here, and tested above 10 MB.
 */
export const config = {
  matcher: "/((?!_next/static|_next/image|favicon.ico|api/datasets/import$|api/campaigns$|api/campaigns/[0-9]+/judges$).*)",
};
