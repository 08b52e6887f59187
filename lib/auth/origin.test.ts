import { describe, expect, it } from "vitest";
import { checkSameOrigin, hasBody, mediaType, type Env } from "./origin";

const env = (e: Record<string, string> = {}): Env => e;
const h = (o: Record<string, string>) => new Headers(o);

describe("checkSameOrigin", () => {
  it("lets reads through whatever their origin", () => {
    for (const m of ["GET", "HEAD", "OPTIONS"]) expect(checkSameOrigin(m, h({ origin: "http://evil.example" }), env()).ok).toBe(true);
  });

  it("accepts a state-changing request from the app's own origin (Host, or NEXTAUTH_URL behind a proxy)", () => {
    expect(checkSameOrigin("POST", h({ host: "localhost:3000", origin: "http://localhost:3000" }), env()).ok).toBe(true);
    const proxied = h({ host: "127.0.0.1:3000", origin: "https://pal.lab.example" });
    expect(checkSameOrigin("PATCH", proxied, env({ NEXTAUTH_URL: "https://pal.lab.example/" })).ok).toBe(true);
    expect(checkSameOrigin("PATCH", proxied, env()).ok).toBe(false);
  });

  it("refuses another origin, a same-site page on another port, and Origin: null", () => {
    const e = env({ NEXTAUTH_URL: "http://localhost:3000" });
    for (const origin of ["http://evil.example", "http://localhost:3001", "null", "not a url"]) {
      const v = checkSameOrigin("POST", h({ host: "localhost:3000", origin }), e);
      expect(v.ok, origin).toBe(false);
      if (!v.ok) expect(v.reason).toMatch(/cross-site request refused/);
    }
  });

  it("compares the scheme too: https on the same host and port is another origin", () => {
    const plain = env({ NEXTAUTH_URL: "http://localhost:3000" });
    expect(checkSameOrigin("POST", h({ host: "localhost:3000", origin: "https://localhost:3000" }), plain).ok).toBe(false);
    expect(checkSameOrigin("POST", h({ host: "localhost:3000", origin: "https://localhost:3000" }), env()).ok).toBe(false);
    expect(checkSameOrigin("POST", h({ host: "localhost:3000", origin: "HTTP://LOCALHOST:3000" }), plain).ok).toBe(true);
    // Behind TLS: NEXTAUTH_URL is https, so the http page of the same host is refused.
    const tls = env({ NEXTAUTH_URL: "https://pal.lab.example" });
    expect(checkSameOrigin("POST", h({ host: "pal.lab.example", origin: "https://pal.lab.example" }), tls).ok).toBe(true);
    expect(checkSameOrigin("POST", h({ host: "127.0.0.1:3000", origin: "http://pal.lab.example" }), tls).ok).toBe(false);
    // A trusted proxy's X-Forwarded-Proto gives the scheme of the request's own host.
    const fwd = h({ host: "pal.lab.example", "x-forwarded-proto": "https", origin: "https://pal.lab.example" });
    expect(checkSameOrigin("POST", fwd, env({ PAL_TRUST_PROXY: "1" })).ok).toBe(true);
    expect(checkSameOrigin("POST", fwd, env()).ok).toBe(false);
  });

  it("without Origin, trusts Sec-Fetch-Site same-origin/none only, and refuses when both are missing", () => {
    const base = { host: "localhost:3000" };
    expect(checkSameOrigin("POST", h({ ...base, "sec-fetch-site": "same-origin" }), env()).ok).toBe(true);
    expect(checkSameOrigin("POST", h({ ...base, "sec-fetch-site": "none" }), env()).ok).toBe(true);
    expect(checkSameOrigin("POST", h({ ...base, "sec-fetch-site": "same-site" }), env()).ok).toBe(false);
    expect(checkSameOrigin("POST", h({ ...base, "sec-fetch-site": "cross-site" }), env()).ok).toBe(false);
    expect(checkSameOrigin("DELETE", h(base), env()).ok).toBe(false);
  });

  it("believes X-Forwarded-Host only when a proxy is configured", () => {
    const hs = h({ host: "localhost:3000", "x-forwarded-host": "evil.example", origin: "http://evil.example" });
    expect(checkSameOrigin("POST", hs, env()).ok).toBe(false);
    expect(checkSameOrigin("POST", hs, env({ PAL_TRUST_PROXY: "1" })).ok).toBe(true);
  });
});

describe("mediaType / hasBody", () => {
  it("reads the type without parameters and tells whether a body is there", () => {
    expect(mediaType(h({ "content-type": "Application/JSON; charset=utf-8" }))).toBe("application/json");
    expect(mediaType(h({}))).toBe("");
    expect(hasBody(h({ "content-length": "0" }))).toBe(false);
    expect(hasBody(h({ "content-length": "12" }))).toBe(true);
    expect(hasBody(h({ "transfer-encoding": "chunked" }))).toBe(true);
    expect(hasBody(h({}))).toBe(false);
  });
});
