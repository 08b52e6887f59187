import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clientIp, installForwardedHeaderGuard } from "./client-ip";

describe("clientIp", () => {
  it("without a trusted proxy takes the address Next filled in, never a client's list", () => {
    expect(clientIp({ "x-forwarded-for": "127.0.0.1" }, {})).toBe("127.0.0.1");
    expect(clientIp({}, {})).toBe("local");
  });

  it("with PAL_TRUST_PROXY=1 believes the entry the proxy appended (the last), not what the client put first", () => {
    expect(clientIp({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" }, { PAL_TRUST_PROXY: "1" })).toBe("203.0.113.7");
    expect(clientIp({ "x-real-ip": "203.0.113.8" }, { PAL_TRUST_PROXY: "1" })).toBe("203.0.113.8");
  });
});

describe("installForwardedHeaderGuard", () => {
  it("removes client-sent forwarding headers from requests of a real HTTP server, unless a proxy is trusted", async () => {
    // A stand-in module object so the test does not patch the process-wide http.Server.
    class Server extends http.Server {}
    const fakeHttp = { ...http, Server } as unknown as typeof http;
    installForwardedHeaderGuard(fakeHttp, {});
    const seen: http.IncomingHttpHeaders[] = [];
    const server = new Server((req, res) => {
      seen.push({ ...req.headers });
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    await fetch(`http://127.0.0.1:${port}/`, {
      headers: { "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.6", "x-forwarded-host": "evil.example", "x-other": "kept" },
    });
    await new Promise((r) => server.close(r));
    expect(seen[0]["x-forwarded-for"]).toBeUndefined();
    expect(seen[0]["x-real-ip"]).toBeUndefined();
    expect(seen[0]["x-forwarded-host"]).toBeUndefined();
    expect(seen[0]["x-other"]).toBe("kept");

    class Trusted extends http.Server {}
    installForwardedHeaderGuard({ ...http, Server: Trusted } as unknown as typeof http, { PAL_TRUST_PROXY: "1" });
    expect(Object.prototype.hasOwnProperty.call(Trusted.prototype, "__palForwardGuard")).toBe(false);
  });
});
