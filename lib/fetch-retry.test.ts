/** Network errors name what failed; requests safe to repeat are retried (a real HTTP server that drops connections). */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, fetchRetry, NetworkError } from "./fetch-retry";

let server: http.Server;
let base = "";
let drops = 0;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    // The first `drops` requests get no reply at all: the socket is destroyed, as a restarting server does.
    if (drops > 0) {
      drops--;
      req.socket.destroy();
      return;
    }
    if (req.url === "/bad") {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "name: required" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("fetchRetry", () => {
  it("retries a GET after dropped connections and returns the reply", async () => {
    drops = 2;
    hits = 0;
    const r = await fetchRetry(`${base}/x`, { what: "load the runs", delayMs: 5 });
    expect(await r.json()).toEqual({ ok: true });
    expect(hits).toBe(3);
  });

  it("says what failed when the server never answers, never the bare 'Failed to fetch'", async () => {
    drops = 5;
    const err = await fetchRetry(`${base}/x`, { what: "load the judge runs", delayMs: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      "Could not load the judge runs: the server did not answer (tried 3 times). It may be restarting or the connection dropped; check it and try again.",
    );
    drops = 0;
  });

  it("does not repeat a POST (the server may have acted on it)", async () => {
    drops = 1;
    hits = 0;
    const err = await fetchRetry(`${base}/x`, { what: "start the judge", method: "POST", delayMs: 5 }).catch((e) => e);
    expect(err.message).toMatch(/^Could not start the judge: the server did not answer\. /);
    expect(hits).toBe(1);
  });

  it("fetchJson names the request beside the server's error", async () => {
    await expect(fetchJson(`${base}/bad`, { what: "save the star", method: "PATCH" })).rejects.toThrow(
      "Could not save the star: name: required",
    );
    await expect(fetchJson(`${base}/x`, { what: "load" })).resolves.toEqual({ ok: true });
  });
});
