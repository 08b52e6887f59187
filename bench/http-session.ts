/** What the HTTP benchmarks share: a percentile, and signing in to a running app (next-auth's credentials flow). */

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** A tiny cookie jar: enough for next-auth's csrf + session cookies. */
export class Jar {
  private cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Signs in as e2e/api-client.ts does; the jar then carries the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<Jar> {
  const jar = new Jar();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  jar.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const r = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  jar.take(r);
  if (!jar.header().includes("session-token")) throw new Error(`sign-in of ${email} failed (${r.status})`);
  return jar;
}
