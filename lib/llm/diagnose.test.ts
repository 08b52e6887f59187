/**
 * "Test connection" names the URL and what failed, against real sockets: a closed port, a host that
 * cannot resolve, TLS spoken to a plain-HTTP server, and the TEST DOUBLE answering 401, 404 and hanging.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import OpenAI from "openai";
import { checkModel } from "./check";
import { diagnose, diagnoseRecorded, pauseHint } from "./diagnose";
import { describe as describeFailure } from "./retry";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = tempDb();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
});

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function check(baseURL: string, timeoutMs = 5000) {
  vi.stubEnv("OPENAI_BASE_URL", baseURL);
  vi.stubEnv("OPENAI_API_KEY", "k");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "some-model");
  return checkModel(t.db, "assistant", timeoutMs);
}

describe("Test connection says what failed, with the URL and the fix", () => {
  it("connection refused", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await check(url);
    expect(r).toMatchObject({ status: "failed", kind: "refused" });
    expect(r.error).toContain(url);
    expect(r.error).toMatch(/connection refused.*is the server running/);
  });

  it("a host name that does not resolve", async () => {
    const r = await check("http://no-such-host.invalid/v1");
    expect(r).toMatchObject({ status: "failed", kind: "dns" });
    expect(r.error).toMatch(/no-such-host\.invalid could not be resolved \(DNS\)/);
  });

  it("https to a plain-HTTP server", async () => {
    const r = await check(fake.baseURL.replace("http://", "https://"));
    expect(r).toMatchObject({ status: "failed", kind: "tls" });
    expect(r.error).toMatch(/TLS handshake failed.*http vs https/);
  });

  it("a refused key, a model the endpoint does not serve, a wrong path, and a hang", async () => {
    fake.setFault(() => ({ kind: "status", status: 401, message: "Incorrect API key provided" }));
    expect(await check(fake.baseURL)).toMatchObject({
      kind: "unauthorized",
      error: expect.stringMatching(/API key was refused \(HTTP 401\)/),
    });
    fake.setFault(() => ({ kind: "status", status: 404, message: "The model `some-model` does not exist" }));
    expect(await check(fake.baseURL)).toMatchObject({
      kind: "model not found",
      error: expect.stringMatching(/does not serve model "some-model"/),
    });
    fake.setFault(() => ({ kind: "status", status: 404, message: "no route POST /nope/chat/completions" }));
    const wrong = await check(fake.baseURL);
    expect(wrong).toMatchObject({ kind: "not found", error: expect.stringMatching(/base URL usually ends in \/v1/) });
    fake.setFault(() => ({ kind: "hang" }));
    expect(await check(fake.baseURL, 300)).toMatchObject({ kind: "timeout", error: expect.stringMatching(/no answer before the timeout/) });
    fake.setFault(undefined);
  });

  it("does not echo the body of a reply that is not an API error (an HTML page at an address an admin typed)", async () => {
    const page = http.createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>intranet page: payroll-2026 figures</body></html>");
    });
    await new Promise<void>((r) => page.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(page.address() as net.AddressInfo).port}/v1`;
      const r = await check(url);
      expect(r).toMatchObject({ status: "failed", kind: "server error" });
      expect(r.error).toContain("the reply was not an API error (its body is not shown)");
      expect(r.error).not.toContain("payroll");
    } finally {
      await new Promise<void>((r) => page.close(() => r()));
    }
    // An API error's message is still shown, with a key it echoes masked.
    fake.setFault(() => ({ kind: "status", status: 500, message: "upstream refused Authorization: Bearer sk-live-0123456789abcdef" }));
    const api = await check(fake.baseURL);
    expect(api.error).toMatch(/upstream refused Authorization: Bearer (sk-)?«masked»/);
    expect(api.error).not.toContain("0123456789abcdef");
    fake.setFault(undefined);
  });
});

describe("the same hint from a failure as the ledger recorded it (issue 44.3)", () => {
  it("a refused connection: describe() names the system error and diagnoseRecorded gives Test connection's message", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const sdk = new OpenAI({ baseURL: url, apiKey: "k", maxRetries: 0 });
    const e = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }).catch((x) => x);
    const recorded = describeFailure(e);
    expect(recorded).toMatch(/\(ECONNREFUSED\)$/);
    expect(diagnoseRecorded(recorded, url, "m")).toEqual(diagnose(e, url, "m"));
    expect(diagnoseRecorded("HTTP 401: Incorrect API key", url, "m").kind).toBe("unauthorized");
    expect(diagnoseRecorded("timeout", url, "m").kind).toBe("timeout");
  });
});

describe("pauseHint: the hint from a pause reason alone (experiments and judge runs, issue 44.3)", () => {
  it("reads the URL and the system error the spend guard wrote", () => {
    const reason =
      "paused by its spend guard: the endpoint could not be reached (http://127.0.0.1:9/v1): 5 attempts in a row could not connect (APIConnectionError: Connection error. (ECONNREFUSED))";
    expect(pauseHint(reason)).toBe("http://127.0.0.1:9/v1: connection refused by 127.0.0.1:9; is the server running on that port?");
    expect(pauseHint("paused by its spend guard: the first 20 attempts all failed")).toBeNull();
    expect(pauseHint(null)).toBeNull();
  });
});
