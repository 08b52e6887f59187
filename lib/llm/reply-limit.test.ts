/**
 * reply-limit.ts (issue 40.7): an endpoint's compressed reply is decoded at most to the reply limit, and
 * a plain body past it is not read on. A real HTTP server sends a gzip bomb (about 200 KB that decode to
 * 200 MiB), a deflate and a brotli one, and an endless plain body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ask, llmClientPerTest } from "@/test/llm-client-env";
import { keepAliveFetch } from "./http-fetch";
import { MAX_REPLY_BYTES } from "./reply-limit";

const MiB = 1024 * 1024;

/** A chat completion whose content is `mib` MiB of spaces, compressed by `pack` a MiB at a time (never whole in memory). */
async function bomb(mib: number, pack: zlib.Gzip | zlib.Deflate | zlib.BrotliCompress): Promise<Buffer> {
  const out: Buffer[] = [];
  pack.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((r) => pack.on("end", r));
  pack.write(
    '{"id":"b","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"',
  );
  const spaces = Buffer.alloc(MiB, 0x20);
  for (let i = 0; i < mib; i++) if (!pack.write(spaces)) await new Promise((r) => pack.once("drain", r));
  pack.end('"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}');
  await done;
  return Buffer.concat(out);
}

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
});

/** A server answering every request with `body` under `headers`; its base URL. */
async function serve(body: Buffer | ((res: http.ServerResponse) => void), headers: Record<string, string> = {}): Promise<string> {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (typeof body === "function") return body(res);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length), ...headers });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const sdk = (baseURL: string) => new OpenAI({ baseURL, apiKey: "k", maxRetries: 0, timeout: 20_000, fetch: keepAliveFetch });
const chat = (s: OpenAI) => s.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });

describe("the reply limit", () => {
  it("a gzip bomb (200 KB → 200 MiB) is refused at the limit, not decoded whole", async () => {
    const gz = await bomb(200, zlib.createGzip({ level: 9 }));
    expect(gz.length).toBeLessThan(MiB);
    const base = await serve(gz, { "content-encoding": "gzip" });
    const before = process.memoryUsage().arrayBuffers;
    const err = await chat(sdk(base)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(String((err as Error & { cause?: { cause?: Error } }).cause?.cause?.message)).toMatch(
      /larger than 32 MiB once decoded \(content-encoding gzip\)/,
    );
    // Decoding stopped at the limit: far from the 200 MiB the body holds.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100 * MiB);
  }, 30_000);

  it("deflate and brotli bombs too; a compressed reply under the limit is still decoded", async () => {
    for (const [encoding, pack] of [
      ["deflate", () => zlib.createDeflate({ level: 9 })],
      ["br", () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })],
    ] as const) {
      const base = await serve(await bomb(40, pack()), { "content-encoding": encoding });
      await expect(chat(sdk(base))).rejects.toThrow(OpenAI.APIConnectionError);
      server!.closeAllConnections();
      await new Promise((r) => server!.close(r));
    }
    const base = await serve(await bomb(2, zlib.createGzip()), { "content-encoding": "gzip" });
    const r = await chat(sdk(base));
    expect(r.choices[0].message.content).toHaveLength(2 * MiB);
  }, 30_000);

  it("a plain body past the limit is not read on, and the ledger says why", async () => {
    const env = llmEnv;
    const base = await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" }); // chunked, no length: it just keeps coming
      const mb = Buffer.alloc(MiB, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 64 && !res.destroyed) {
          sent++;
          if (!res.write(mb)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    vi.stubEnv("OPENAI_BASE_URL", base);
    const c = env.client({ retries: 0, timeoutMs: 20_000 });
    await expect(c.chat({ messages: ask("hi"), purpose: "test.limit" })).rejects.toThrow();
    const [row] = env.ledger();
    expect(row).toMatchObject({ status: "failed", usageUnknown: true });
    expect(row.error).toMatch(/^the endpoint's reply is larger than 32 MiB: refused/);
    expect(MAX_REPLY_BYTES).toBe(32 * MiB);
  }, 30_000);
});

const llmEnv = llmClientPerTest();
