import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";

const APP = "http://localhost:3000";
const post = (path: string, headers: Record<string, string>) =>
  proxy(new NextRequest(`${APP}${path}`, { method: "POST", headers: { host: "localhost:3000", ...headers }, body: "x" }));

describe("proxy: the origin rule for every state-changing request to a page", () => {
  it("answers 403 to a no-JavaScript server-action form post from another site (no Next-Action header)", async () => {
    const mpa = { "content-type": "multipart/form-data; boundary=x" };
    for (const headers of [
      { ...mpa, "sec-fetch-site": "cross-site" },
      { ...mpa, origin: "http://evil.example" },
      { ...mpa, origin: "https://localhost:3000" },
      mpa,
    ]) {
      const res = post("/campaigns/1", headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toMatch(/^Forbidden: cross-site request refused/);
    }
    const patch = proxy(new NextRequest(`${APP}/admin/users`, { method: "PATCH", headers: { origin: "http://evil.example" } }));
    expect(patch.status).toBe(403);
  });

  it("lets the app's own posts, reads, and /api routes (which check the origin themselves) through", () => {
    expect(post("/campaigns/1", { origin: APP }).status).toBe(200);
    expect(post("/campaigns/1", { "sec-fetch-site": "same-origin" }).status).toBe(200);
    expect(proxy(new NextRequest(`${APP}/campaigns/1`, { headers: { origin: "http://evil.example" } })).status).toBe(200);
    expect(post("/api/auth/callback/credentials", { "sec-fetch-site": "cross-site" }).status).toBe(200);
  });
});
