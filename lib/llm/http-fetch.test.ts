import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import OpenAI, { APIError } from "openai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { ModelClient } from "./client";
import { diagnose } from "./diagnose";
import { keepAliveFetch } from "./http-fetch";

/** A bare server that records each request's headers and the connections it was sent on. */
async function recordingServer(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string; socket: number }> = [];
  const sockets = new Map<object, number>();
  const server = http.createServer((req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers, body, socket: sockets.get(req.socket)! });
      handle(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const completion = (content: string) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  });

describe("keepAliveFetch", () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
  });
  const sdk = (baseURL = fake.baseURL, timeout = 2000) =>
    new OpenAI({ baseURL, apiKey: "k", maxRetries: 0, timeout, fetch: keepAliveFetch });
  const chat = (s: OpenAI) => s.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });

  it("carries the SDK's requests over node:http, one kept-alive connection for calls in turn", async () => {
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-7" });
      res.end(completion('{"ok": true}'));
    });
    try {
      const s = sdk(`${srv.base}/v1`);
      for (let i = 0; i < 3; i++) {
        const r = await chat(s);
        expect(r.choices[0].message.content).toBe('{"ok": true}');
        expect(r._request_id).toBe("req-7");
      }
      expect(srv.seen.map((x) => x.socket)).toEqual([0, 0, 0]);
      expect(srv.seen[0].headers.authorization).toBe("Bearer k");
      expect(JSON.parse(srv.seen[0].body)).toMatchObject({ model: "m" });
      // The global fetch (undici) adds these; the node:http path does not.
      expect(srv.seen[0].headers["sec-fetch-mode"]).toBeUndefined();
    } finally {
      await srv.close();
    }
  });

  it("gives the SDK the errors the global fetch would: status with headers, drops, cut bodies, timeouts, refused, DNS", async () => {
    const s = sdk(fake.baseURL, 300);
    fake.enqueue({ kind: "status", status: 429, retryAfterSeconds: 2 });
    const limited = await chat(s).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(APIError);
    expect((limited as APIError).status).toBe(429);
    expect((limited as APIError).headers?.get("retry-after")).toBe("2");

    fake.enqueue({ kind: "drop" });
    const dropped = await chat(s).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(diagnose(dropped, fake.baseURL, "m").kind).toBe("connection");

    fake.enqueue({ kind: "midbody" });
    const cut = await chat(s).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(diagnose(cut, fake.baseURL, "m").kind).toBe("connection");

    fake.enqueue({ kind: "malformed" });
    await expect(chat(s)).rejects.toThrow(SyntaxError);

    fake.enqueue({ kind: "hang" });
    await expect(chat(s)).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);

    // Still usable after all that.
    fake.enqueue("fine");
    expect((await chat(s)).choices[0].message.content).toBe("fine");

    const closed = await recordingServer(() => {});
    const url = `${closed.base}/v1`;
    await closed.close();
    const refused = await chat(sdk(url)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(diagnose(refused, url, "m").kind).toBe("refused");

    const nowhere = await chat(sdk("http://no-such-host.invalid/v1")).catch((e: unknown) => e);
    expect(diagnose(nowhere, "http://no-such-host.invalid/v1", "m").kind).toBe("dns");
  });

  it("decodes a compressed reply, refuses a redirect, and hands other bodies to the global fetch", async () => {
    const srv = await recordingServer((req, _body, res) => {
      if (req.url === "/old/v1/chat/completions") {
        res.writeHead(307, { location: "/v1/chat/completions" });
        return res.end();
      }
      if (req.url === "/v1/files") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ id: "file-1", object: "file", bytes: 1, created_at: 0, filename: "b.jsonl", purpose: "batch" }));
      }
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(zlib.gzipSync(completion("zipped")));
    });
    try {
      expect((await chat(sdk(`${srv.base}/v1`))).choices[0].message.content).toBe("zipped");
      // Issue 30.8: a redirect is not followed, not even on the same server; the error names it and its target.
      const e = await chat(sdk(`${srv.base}/old/v1`)).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(APIError);
      expect((e as APIError).status).toBe(307);
      expect((e as APIError).message).toContain(`redirect (HTTP 307) to ${srv.base}/v1/chat/completions`);
      expect(srv.seen.map((x) => x.url)).toEqual(["/v1/chat/completions", "/old/v1/chat/completions"]);
      const file = await sdk(`${srv.base}/v1`).files.create({ file: new File(["{}\n"], "b.jsonl"), purpose: "batch" });
      expect(file.id).toBe("file-1");
      expect(srv.seen.at(-1)!.headers["content-type"]).toMatch(/^multipart\/form-data/);
    } finally {
      await srv.close();
    }
  });

  it("follows no redirect to another address (a cloud's metadata service), on either transport; the key is masked in the error", async () => {
    const target = await recordingServer((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(completion("metadata"));
    });
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(302, { location: `${target.base}/latest/meta-data/?api_key=sk-abcdefghijklmnop` });
      res.end();
    });
    try {
      const e = (await chat(sdk(`${srv.base}/v1`)).catch((x: unknown) => x)) as APIError;
      expect(e.status).toBe(302);
      expect(e.message).toContain(`redirect (HTTP 302) to ${target.base}/latest/meta-data/`);
      expect(e.message).not.toContain("sk-abcdefghijklmnop");
      // The global fetch's path (a multipart upload) does not follow it either.
      const f = (await sdk(`${srv.base}/v1`)
        .files.create({ file: new File(["{}\n"], "b.jsonl"), purpose: "batch" })
        .catch((x: unknown) => x)) as APIError;
      expect(f.status).toBe(302);
      expect(f.message).toMatch(/model calls follow no redirects/);
      expect(target.seen).toEqual([]);
    } finally {
      await srv.close();
      await target.close();
    }
  });

  it("times out a reply that trickles a byte a second: the timeout bounds the body too, on either transport", async () => {
    const timers: NodeJS.Timeout[] = [];
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const body = completion("slow");
      let i = 0;
      const tick = setInterval(() => {
        if (res.destroyed || i >= body.length) return clearInterval(tick);
        res.write(body[i++]);
      }, 1000);
      timers.push(tick);
    });
    try {
      const t0 = Date.now();
      await expect(chat(sdk(`${srv.base}/v1`, 1500))).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      expect(Date.now() - t0).toBeLessThan(5000);
      const t1 = Date.now();
      const upload = sdk(`${srv.base}/v1`, 1500).files.create({ file: new File(["{}\n"], "b.jsonl"), purpose: "batch" });
      await expect(upload).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      expect(Date.now() - t1).toBeLessThan(5000);
    } finally {
      timers.forEach(clearInterval);
      await srv.close();
    }
  });

  it("a Response whose body is read once, as text, JSON, bytes or a stream", async () => {
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(200, [
        ["Content-Type", "application/json"],
        ["X-Part", "a"],
        ["X-Part", "b"],
      ]);
      res.end('{"a":1}');
    });
    try {
      const r = await keepAliveFetch(`${srv.base}/x`, { method: "POST", body: "{}" });
      expect(r.status).toBe(200);
      // Read as Headers reads them: any case, repeated ones joined, absent ones null.
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.headers.get("x-part")).toBe("a, b");
      expect(r.headers.has("X-PART")).toBe(true);
      expect(r.headers.get("retry-after")).toBeNull();
      expect([...r.headers.entries()].filter(([k]) => k === "x-part")).toEqual([
        ["x-part", "a"],
        ["x-part", "b"],
      ]);
      const copy = r.clone();
      expect(await r.json()).toEqual({ a: 1 });
      expect(r.bodyUsed).toBe(true);
      await expect(r.text()).rejects.toThrow(/already been read/);
      expect(await new Response(copy.body).text()).toBe('{"a":1}');
      const again = await keepAliveFetch(`${srv.base}/x`);
      expect(new TextDecoder().decode(await again.arrayBuffer())).toBe('{"a":1}');
    } finally {
      await srv.close();
    }
  });
});

describe("ModelClient transport", () => {
  let t: ReturnType<typeof tempDb>;
  afterEach(() => {
    vi.unstubAllEnvs();
    t.cleanup();
  });

  it("sends its calls through the keep-alive transport", async () => {
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(completion('{"ok": true}'));
    });
    t = tempDb();
    vi.stubEnv("OPENAI_BASE_URL", `${srv.base}/v1`);
    vi.stubEnv("OPENAI_API_KEY", "k");
    vi.stubEnv("PAL_MODEL_ASSISTANT", "m");
    try {
      const c = ModelClient.create(t.db);
      for (let i = 0; i < 2; i++) {
        const r = await c.chat({ messages: [{ role: "user", content: `q${i}` }], schema: z.object({ ok: z.boolean() }), purpose: "test" });
        expect(r.value).toEqual({ ok: true });
      }
      expect(srv.seen.map((x) => x.socket)).toEqual([0, 0]);
      expect(srv.seen.every((x) => x.headers["sec-fetch-mode"] === undefined)).toBe(true);
    } finally {
      await srv.close();
    }
  });

  it("a redirect fails the call once (no retry), and the ledger says it was a redirect and where to", async () => {
    const srv = await recordingServer((_req, _body, res) => {
      res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    });
    t = tempDb();
    vi.stubEnv("OPENAI_BASE_URL", `${srv.base}/v1`);
    vi.stubEnv("OPENAI_API_KEY", "k");
    vi.stubEnv("PAL_MODEL_ASSISTANT", "m");
    try {
      const c = ModelClient.create(t.db, { retryBaseMs: 1 });
      await expect(c.chat({ messages: [{ role: "user", content: "q" }], purpose: "test" })).rejects.toThrow(
        /redirect \(HTTP 301\) to http:\/\/169\.254\.169\.254\/latest\/meta-data\//,
      );
      expect(srv.seen).toHaveLength(1);
      const rows = t.db.$client.prepare("SELECT status, error FROM llm_calls").all() as Array<{ status: string; error: string }>;
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe("failed");
      expect(rows[0].error).toMatch(
        /^HTTP 301: .*redirect \(HTTP 301\) to http:\/\/169\.254\.169\.254\/latest\/meta-data\/; model calls follow no redirects/,
      );
    } finally {
      await srv.close();
    }
  });
});
