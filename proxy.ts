import { NextResponse, type NextRequest } from "next/server";

/**
 * Runs before routing. Its only job: a URL with a broken percent-escape (e.g. `%E0%A4%A`) is the
 * client's error, so it gets 400 here instead of a 500 from the router. Authentication is NOT done
 * here: every page, route handler and server action checks the session and role itself.
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
  return NextResponse.next();
}

export const config = { matcher: "/((?!_next/static|_next/image|favicon.ico).*)" };
