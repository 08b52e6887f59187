import { request, type APIRequestContext } from "@playwright/test";
import { e2eState, type Account } from "./state";

/**
 * An HTTP client signed in through next-auth's credentials endpoint (CSRF token included). It sends
 * `Origin: <the app>` as the app's own pages do (state-changing requests without it are refused);
 * `origin: null` leaves it out, another string sends that origin instead.
 */
export async function apiAs(a: Account | null, opts: { origin?: string | null } = {}): Promise<APIRequestContext> {
  const baseURL = e2eState().baseURL;
  const origin = opts.origin === undefined ? baseURL : opts.origin;
  const ctx = await request.newContext({ baseURL, extraHTTPHeaders: origin === null ? {} : { origin } });
  if (!a) return ctx;
  const res = await signIn(ctx, a.email, a.password);
  if (!res.ok) throw new Error(`sign-in as ${a.email} failed: ${res.status}`);
  return ctx;
}

/** Posts the credentials form; `ok` says whether a session cookie came back. */
export async function signIn(ctx: APIRequestContext, email: string, password: string) {
  const { csrfToken } = await (await ctx.get("/api/auth/csrf")).json();
  const r = await ctx.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    maxRedirects: 0,
  });
  const cookies = (await ctx.storageState()).cookies;
  // With json=true next-auth answers {url}; otherwise it redirects. Either way the URL carries ?error=.
  const body = await r.json().catch(() => null);
  const location = (body && typeof body.url === "string" ? body.url : r.headers()["location"]) ?? "";
  return {
    ok: cookies.some((c) => c.name.endsWith("next-auth.session-token")),
    status: r.status(),
    error: new URL(location || "http://x/").searchParams.get("error"),
  };
}
