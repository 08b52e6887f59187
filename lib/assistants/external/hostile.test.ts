/**
 * Attacks on an external method's two wires (session 7's hostile round): a service answering what no
 * method should (redirects, brackets nested millions deep, a body that never ends), and clients of the
 * run's model endpoint that misbehave (a body over the limit, one that never finishes, too deep JSON).
 * Real HTTP servers and sockets on loopback; no mock of fetch or of the endpoint.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { callService, ExternalMethodError, SEND_LIMITS } from "./http";
import { ENDPOINT_LIMITS, MAX_REQUEST_BYTES, openGrant, type GrantModel } from "./endpoint";
import { methodInput } from "./store";

// Lowered before the endpoint's first use in this file (each test file has its own module state).
Object.assign(ENDPOINT_LIMITS, { headersMs: 600, requestMs: 800, checkMs: 100, maxConnections: 20 });

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A service whose every request is answered by `handler`; counts its requests. */
async function service(handler: http.RequestListener) {
  let hits = 0;
  const s = http.createServer((req, res) => (hits++, handler(req, res)));
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, hits: () => hits };
}

const method = (url: string, timeoutMs = 1000) => ({ name: "mine", label: "mine", url, headers: { "X-Lab-Key": "s3cret" }, timeoutMs });
const policy = { retries: 2, baseMs: 5, maxMs: 10, timeoutRetries: 1 };
const ask = (url: string, timeoutMs?: number) =>
  callService(method(url, timeoutMs), { method: "GET", path: "/", schema: z.object({ name: z.string() }) }, policy);

describe("a hostile method service", () => {
  it("a redirect is never followed (the lab's key stays home) and is not retried", async () => {
    const elsewhere = await service((req, res) => res.end(JSON.stringify({ name: `stolen ${req.headers["x-lab-key"]}` })));
    const svc = await service((_req, res) => (res.writeHead(302, { location: elsewhere.url + "/?token=sk-live-abcdef123456" }), res.end()));
    const e = await ask(svc.url).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExternalMethodError);
    expect((e as Error).message).toMatch(/HTTP 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/\?token=\S+, not followed/);
    expect((e as Error).message).not.toContain("sk-live-abcdef123456");
    expect(elsewhere.hits()).toBe(0);
    expect(svc.hits()).toBe(1);
  });

  it("a reply nested millions of levels deep is refused before it is parsed, and not asked again", async () => {
    const n = 3_000_000;
    const svc = await service((_req, res) => res.end(`{"name": "x", "extra": ${"[".repeat(n)}${"]".repeat(n)}}`));
    const e = await ask(svc.url).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/GET \/: the reply's extra\[0\]\[0\]\[0\].*nested deeper than 64 levels/);
    expect(svc.hits()).toBe(1);
  });

  it("a body that trickles forever (slowloris) ends at the method's timeout, a byte at a time never resets it", async () => {
    const svc = await service((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"name": "');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write("x")), 50);
    });
    const t0 = Date.now();
    const e = await ask(svc.url, 1000).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/no reply within 1000 ms/);
    // One try and the one retry allowed after a timeout, each cut at its timeout.
    expect(svc.hits()).toBe(2);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("a request over the send limit (the memory a method handed back, sent with each answer) fails at once, nothing sent", async () => {
    const svc = await service((_req, res) => res.end('{"name": "x"}'));
    const before = SEND_LIMITS.maxBytes;
    SEND_LIMITS.maxBytes = 1024 * 1024;
    try {
      const memory = Array.from({ length: 300 }, (_, i) => ({ kind: "note", key: String(i), content: "m".repeat(4000) }));
      const e = await callService(
        method(svc.url),
        { method: "POST", path: "/respond", body: { memory }, schema: z.object({ name: z.string() }) },
        policy,
      ).catch((x: unknown) => x);
      expect((e as Error).message).toMatch(/POST \/respond: the request would be 1 MB, over the 1 MB sent to a method/);
      expect(svc.hits()).toBe(0);
    } finally {
      SEND_LIMITS.maxBytes = before;
    }
  });

  it("prototype keys and extra keys in a reply change nothing outside it", async () => {
    const svc = await service((_req, res) =>
      res.end('{"name": "x", "__proto__": {"polluted": true}, "constructor": {"prototype": {"p": 1}}}'),
    );
    const r = await ask(svc.url);
    expect(r.name).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(r)).not.toHaveProperty("polluted", true);
  });
});

describe("registering a method: headers that could never be sent are refused up front", () => {
  const parse = (headers: Record<string, string>) => methodInput.safeParse({ name: "mine", url: "http://127.0.0.1:1", headers });
  it.each([
    [{ "X-Key": "a\u0000b" }, /headers\.X-Key: a header value of visible characters/],
    [{ "X-Key": "bad\u007f" }, /a header value of visible characters/],
    [{ "X-Key": "euro €" }, /a header value of visible characters/],
    [{ "X-Key": "a\r\nX-Injected: 1" }, /a header value of visible characters/],
    [{ "Content-Length": "3" }, /Content-Length.*set by PAL Studio/],
    [{ "transfer-encoding": "chunked" }, /set by PAL Studio/],
    [{ Host: "evil.example" }, /set by PAL Studio/],
    [{ Expect: "100-continue" }, /set by PAL Studio/],
  ])("%j", (headers, why) => {
    const r = parse(headers);
    expect(r.success).toBe(false);
    const i = r.error!.issues[0];
    expect(`${i.path.join(".")}: ${i.message}`).toMatch(why);
  });

  it("names and labels with control characters or bidi overrides are refused", () => {
    const parse = (o: Record<string, string>) => methodInput.safeParse({ name: "mine", url: "http://127.0.0.1:1", ...o }).success;
    expect(parse({ label: "My-method\u202egnp.exe" })).toBe(false);
    expect(parse({ label: "a\u0000b" })).toBe(false);
    expect(parse({ name: "mine\u200b" })).toBe(false);
    expect(parse({ url: "javascript:alert(1)" })).toBe(false);
    expect(parse({ url: "file:///etc/passwd" })).toBe(false);
    expect(parse({ url: "http://user:pw@127.0.0.1:1" })).toBe(false);
    // Paths are appended to the URL: a query ("?api_key=…", shown in lists) or a fragment would swallow them.
    expect(parse({ url: "http://127.0.0.1:1/m?api_key=sk-secret" })).toBe(false);
    expect(parse({ url: "http://127.0.0.1:1/m#x" })).toBe(false);
    expect(parse({ url: "http://127.0.0.1:1/m/" })).toBe(true);
    expect(parse({ label: "My-method" })).toBe(true);
  });

  it("an ordinary key, with spaces, tabs and Latin-1, is kept", () => {
    expect(parse({ Authorization: "Bearer abc.DEF-123", "X-Note": "caf\u00e9\tok" }).success).toBe(true);
  });
});

const usage = { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0 };

describe("the run's model endpoint under attack", () => {
  const seen: string[] = [];
  const model: GrantModel = {
    chat: async (o) => (seen.push(String(o.messages[0].content).slice(0, 20)), { text: "ok", cacheKey: "k", usage }),
    embed: async (texts) => texts.map(() => [1]),
  };

  it("a body over the limit gets a 413 the method can read (declared or streamed), and the model is not called", async () => {
    const g = await openGrant(model, "mine");
    const url = g.access.baseUrl + "/chat/completions";
    const auth = { authorization: `Bearer ${g.access.apiKey}`, "content-type": "application/json" };
    const big = JSON.stringify({ messages: [{ role: "user", content: "y".repeat(MAX_REQUEST_BYTES) }] });
    const declared = await fetch(url, { method: "POST", headers: auth, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.message).toMatch(/over 4194304 bytes/);
    // Chunked, no Content-Length: cut while reading.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new TextEncoder().encode("z".repeat(1024 * 1024)));
        c.close();
      },
    });
    const chunked = await fetch(url, { method: "POST", headers: auth, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(seen).toEqual([]);
    g.close();
  });

  it("JSON nested too deep is a 400 naming where, before it is parsed", async () => {
    const g = await openGrant(model, "mine");
    const body = `{"messages": [{"role": "user", "content": "hi"}], "x": ${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`;
    const r = await fetch(g.access.baseUrl + "/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${g.access.apiKey}` },
      body,
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toMatch(/^x\[0\]\[0\].*nested deeper than 64 levels/);
    g.close();
  });

  /** A raw client that sends `head` (and `body`), then nothing: resolves with what the server said and when it closed. */
  function stall(port: number, head: string, body = "") {
    return new Promise<{ ms: number; reply: string }>((resolve) => {
      const t0 = Date.now();
      let reply = "";
      const s = net.connect(port, "127.0.0.1", () => s.write(head + body));
      s.on("data", (d) => (reply += d));
      s.on("close", () => resolve({ ms: Date.now() - t0, reply }));
      s.on("error", () => {});
      // The test's own bound: a server without timeouts would keep it for minutes.
      setTimeout(() => s.destroy(), 8000);
    });
  }

  it("connections past the cap are closed at once (30 idle sockets against a cap of 20)", async () => {
    const g = await openGrant(model, "mine");
    const port = Number(new URL(g.access.baseUrl).port);
    const closedEarly: number[] = [];
    const sockets = Array.from({ length: 30 }, (_, i) => {
      const s = net.connect(port, "127.0.0.1");
      s.on("close", () => closedEarly.push(i));
      s.on("error", () => {});
      return s;
    });
    await new Promise((r) => setTimeout(r, 300));
    const early = closedEarly.length;
    for (const s of sockets) s.destroy();
    // Below the headers timeout (600 ms here): only the cap closes them this soon.
    expect(early).toBeGreaterThanOrEqual(10);
    expect(early).toBeLessThan(30);
    g.close();
  });

  it("a client that never finishes its headers or its body is cut off at the endpoint's timeouts", async () => {
    const g = await openGrant(model, "mine");
    const port = Number(new URL(g.access.baseUrl).port);
    const headers = await stall(port, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ");
    expect(headers.ms).toBeLessThan(5000);
    const body = await stall(
      port,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${g.access.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
      '{"messages": [',
    );
    expect(body.ms).toBeLessThan(5000);
    expect(body.reply).toMatch(/^HTTP\/1\.1 408/);
    expect(seen).toEqual([]);
    g.close();
  });
});
