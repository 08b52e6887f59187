import { NextResponse, type NextRequest } from "next/server";
import { SAFE_METHODS, checkSameOrigin } from "@/lib/auth/origin";

/**
 * Runs before routing. Its jobs:
 * - a URL with a broken percent-escape (e.g. `%E0%A4%A`) is the client's error: 400 here instead of
 *   a 500 from the router;
 * - every state-changing request (POST, ...) to a page, not from the app's own pages: a clear 403 here.
 *   That covers server actions called by script (`Next-Action` header) and the no-JavaScript form posts
 *   of server actions (`$ACTION_ID_…` in a multipart body, no header), which Next would otherwise run
 *   for a cross-site page without an Origin, or refuse by throwing (a 500 with a stack trace).
 * Authentication is NOT done here: every page, route handler and server action checks the session
 * and role itself. Route handlers (/api/...) check the origin themselves, in withRole; next-auth's
 * own endpoints use its CSRF token.
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
  if (!SAFE_METHODS.has(request.method) && !isApiPath(request.nextUrl.pathname)) {
    const verdict = checkSameOrigin(request.method, request.headers);
    if (!verdict.ok) {
      return new NextResponse(`Forbidden: ${verdict.reason}.\n`, { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }
  return NextResponse.next();
}

function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/**
 * Not for static files, and not for the upload routes (data-set import, new campaign, judge verdicts, bundle import):
 * when proxy runs, Next buffers the request body in memory (and cuts it at 10 MB) so that proxy could
 * read it; uploads of hundreds of MB must stream straight to the handler instead. Those paths have no
 * escapes to check (the campaign id is digits only) and their handlers check the origin themselves
 * (withRole). A new upload route must be added here, and tested above 10 MB.
 */
export const config = {
  matcher:
    "/((?!_next/static|_next/image|favicon.ico|api/datasets/import$|api/campaigns$|api/campaigns/[0-9]+/judges$|api/experiments/bundle$).*)",
};
