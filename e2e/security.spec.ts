import { test, expect, allowConsoleErrors, pageStatus } from "./fixtures";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { e2eState, login, account } from "./state";
import { apiAs } from "./api-client";
import { generatePalset } from "../bench/gen-palset";

const ROOT = path.resolve(import.meta.dirname, "..");
const url = (p: string) => `${e2eState().baseURL}${p}`;
const db = () => new Database(e2eState().dbPath, { readonly: true });
function query<T>(sql: string, ...args: unknown[]): T[] {
  const d = db();
  try {
    return d.prepare(sql).all(...args) as T[];
  } finally {
    d.close();
  }
}
const userCount = (email: string) => query<{ n: number }>("select count(*) n from users where email = ?", email)[0].n;

test.describe("cross-site requests (CSRF)", () => {
  test("a same-site page on another port that auto-submits a text/plain form creates no admin", async ({ page }) => {
    allowConsoleErrors(pageStatus(403)); // the forged post's answer, on purpose
    await login(page, account("admin"));
    const email = `csrf-${Date.now()}@evil.example`;
    // The attacker's page: same host (localhost, so the session cookie is sent), another port.
    const html = `<!doctype html><form id=f method=POST enctype=text/plain action="${url("/api/admin/users")}">
      <input name='{"email":"${email}","role":"admin","password":"pwned-pwned-1","x":"' value='"}'></form>
      <script>document.getElementById("f").submit()</script>`;
    const evil = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
    const port = (evil.address() as net.AddressInfo).port;
    try {
      const answered = page.waitForResponse((r) => r.url().endsWith("/api/admin/users") && r.request().method() === "POST");
      await page.goto(`http://localhost:${port}/`);
      const res = await answered;
      expect(res.status()).toBe(403);
      expect(await res.text()).toContain("cross-site request refused");
    } finally {
      evil.close();
    }
    expect(userCount(email)).toBe(0);
  });

  test("state-changing API calls need the app's origin and JSON bodies", async () => {
    const email = `csrf-api-${Date.now()}@x.org`;
    const body = JSON.stringify({ email, role: "admin", password: "long-enough-1" });
    const evil = await apiAs(account("admin"), { origin: "http://evil.example" });
    const r1 = await evil.post("/api/admin/users", { headers: { "content-type": "application/json" }, data: body });
    expect(r1.status()).toBe(403);
    const r2 = await evil.patch("/api/admin/users/2", { data: { disabled: true } });
    expect(r2.status()).toBe(403);
    // No Origin and no Sec-Fetch-Site (a script, or an old browser): refused as well.
    const bare = await apiAs(account("admin"), { origin: null });
    expect((await bare.post("/api/admin/users", { headers: { "content-type": "application/json" }, data: body })).status()).toBe(403);
    const sameOrigin = await bare.post("/api/admin/users", {
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      data: body,
    });
    expect(sameOrigin.status()).toBe(201);
    // The right origin but a form body: 415, nothing created.
    const ok = await apiAs(account("admin"));
    const other = `csrf-form-${Date.now()}@x.org`;
    const r3 = await ok.post("/api/admin/users", {
      headers: { "content-type": "text/plain" },
      data: JSON.stringify({ email: other, role: "admin", password: "long-enough-1" }),
    });
    expect(r3.status()).toBe(415);
    expect(userCount(other)).toBe(0);
    expect(query<{ disabled: number }>("select disabled from users where id = 2")[0].disabled).toBe(0);
  });

  test("a multipart import with replace=true from another origin overwrites nothing", async () => {
    const [{ id, n }] = query<{ id: number; n: number }>(
      "select d.id, (select count(*) from pal_users u where u.dataset_id = d.id) n from datasets d where d.name = 'PAL-Set demo (en)'",
    );
    const evil = await apiAs(account("admin"), { origin: "http://localhost:1" });
    const one = fs.readFileSync(path.join(ROOT, "fixtures", "palset", "en", "users", "0000.json"));
    const res = await evil.post("/api/datasets/import", {
      multipart: {
        kind: "palset",
        name: "PAL-Set demo (en)",
        replace: "true",
        files: { name: "0000.json", mimeType: "application/json", buffer: one },
      },
    });
    expect(res.status()).toBe(403);
    const [after] = query<{ id: number; n: number }>(
      "select d.id, (select count(*) from pal_users u where u.dataset_id = d.id) n from datasets d where d.name = 'PAL-Set demo (en)'",
    );
    expect(after).toEqual({ id, n });
  });

  test("a server action posted from another origin is a clear 403, not a 500", async () => {
    // A real action id of the admin page (the forms are client components, so the id is read from the build's manifest).
    const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../.next/server/server-reference-manifest.json"), "utf8"));
    const actionId = Object.entries<{ exportedName: string; filename: string }>(manifest.node).find(
      ([, a]) => a.filename.endsWith("admin/users/actions.ts") && a.exportedName === "setDisabledAction",
    )?.[0];
    expect(actionId, "the admin page has a setDisabledAction server action").toBeTruthy();
    const evil = await apiAs(account("admin"), { origin: "http://evil.example" });
    const res = await evil.post("/admin/users", {
      headers: { "next-action": actionId!, "content-type": "multipart/form-data; boundary=x" },
      data: '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n2\r\n--x\r\nContent-Disposition: form-data; name="disabled"\r\n\r\ntrue\r\n--x--\r\n',
    });
    expect(res.status()).toBe(403);
    expect(await res.text()).toContain("cross-site request refused");
    expect(query<{ disabled: number }>("select disabled from users where id = 2")[0].disabled).toBe(0);
  });
});

test("after sign-in, a callback that would leave the app lands on the app instead", async ({ page }) => {
  const base = new URL(e2eState().baseURL);
  for (const cb of ["/%5Cevil.example/x", "/%09/evil.example/x"]) {
    await page.context().clearCookies();
    await page.route(
      (u) => u.hostname === "evil.example",
      (r) => r.fulfill({ status: 200, body: "evil" }),
    );
    await page.goto(url(`/login?callbackUrl=${cb}`));
    await page.getByLabel("Email").fill(account("researcher").email);
    await page.getByLabel("Password").fill(account("researcher").password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("current-user").waitFor();
    expect(new URL(page.url()).host, cb).toBe(base.host);
  }
});

test.describe("sign-in endpoint", () => {
  test("refuses a huge body and an over-long email without writing them; ignores a client's X-Forwarded-For", async () => {
    const anon = await apiAs(null);
    const { csrfToken } = await (await anon.get("/api/auth/csrf")).json();
    const big = await anon.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: `${"a".repeat(5 * 1024 * 1024)}@x.org`, password: "whatever-1", json: "true" },
      maxRedirects: 0,
    });
    expect(big.status()).toBe(413);
    const long = `${"b".repeat(300)}@x.org`;
    const r = await anon.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: long, password: "whatever-1", json: "true" },
      headers: { "x-forwarded-for": "203.0.113.99" },
      maxRedirects: 0,
    });
    expect(r.status()).toBeLessThan(500);
    expect(query<{ n: number }>("select count(*) n from login_attempts where length(email) > 254")[0].n).toBe(0);
    // A normal failed attempt with a spoofed address is counted against the real peer.
    const email = `spoof-${Date.now()}@x.org`;
    await anon.post("/api/auth/callback/credentials", {
      form: { csrfToken, email, password: "whatever-1", json: "true" },
      headers: { "x-forwarded-for": "203.0.113.99" },
      maxRedirects: 0,
    });
    const rows = query<{ ip: string }>("select ip from login_attempts where email = ?", email);
    expect(rows).toHaveLength(1);
    expect(rows[0].ip).not.toContain("203.0.113.99");
  });
});

test("responses carry the security headers", async () => {
  const res = await (await apiAs(null)).get("/login");
  const h = res.headers();
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["x-frame-options"]).toBe("DENY");
});

test("an empty user PATCH is a 400", async () => {
  const admin = await apiAs(account("admin"));
  const res = await admin.patch("/api/admin/users/2", { data: {} });
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toMatch(/role and\/or disabled/);
});

test("a malformed #fragment does not break the session page", async ({ page }) => {
  const [{ id }] = query<{ id: number }>("select id from datasets where name = 'PAL-Set demo (en)'");
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await login(page, account("researcher"));
  await page.goto(url(`/datasets/${id}/users/0000/sessions/0000_sample1#%E0%A4%A`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  expect(errors).toEqual([]);
});

test.describe("large uploads", () => {
  test.setTimeout(300_000);

  test("a declared 5 GB upload gets a prompt 413", async () => {
    const admin = await apiAs(account("researcher"));
    const cookie = (await admin.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const base = new URL(e2eState().baseURL);
    const answer = await new Promise<string>((resolve, reject) => {
      const s = net.connect(Number(base.port), base.hostname, () => {
        s.write(
          `POST /api/datasets/import HTTP/1.1\r\nHost: ${base.host}\r\nOrigin: ${base.origin}\r\nCookie: ${cookie}\r\n` +
            `Content-Type: application/x-pal-upload\r\nContent-Length: ${5 * 1024 ** 3}\r\n\r\n`,
        );
      });
      let got = "";
      s.on("data", (d) => {
        got += d;
        if (got.includes("\r\n\r\n")) {
          s.destroy();
          resolve(got);
        }
      });
      s.on("error", reject);
      setTimeout(() => reject(new Error(`no answer within 10 s: ${got}`)), 10_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });

  test("a PAL-Set file over 50 MB uploads through the page and shows its counts", async ({ page }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-big-"));
    try {
      const file = path.join(dir, "input.json");
      const stats = generatePalset(file, 40, 7);
      expect(stats.bytes).toBeGreaterThan(50 * 1024 * 1024);
      await login(page, account("researcher"));
      const name = `E2E big upload ${Date.now()}`;
      await page.goto(url("/datasets/import"));
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Language").selectOption("zh");
      await page.getByTestId("import-files").setInputFiles(file);
      await page.getByRole("button", { name: "Import", exact: true }).click();
      const result = page.getByTestId("import-result");
      await expect(result).toBeVisible({ timeout: 240_000 });
      const nf = new Intl.NumberFormat("en-US");
      for (const [label, n] of [
        ["users", stats.users],
        ["logs", stats.logs],
        ["turns", stats.turns],
        ["topics", stats.topics],
      ] as const) {
        await expect(
          result
            .locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
            .locator("dd")
            .first(),
          label,
        ).toHaveText(nf.format(n));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the import API takes a streamed multipart upload", async () => {
    const api = await apiAs(account("researcher"));
    const name = `E2E multipart ${Date.now()}`;
    const one = fs.readFileSync(path.join(ROOT, "fixtures", "palset", "en", "users", "0000.json"));
    const res = await api.post("/api/datasets/import", {
      multipart: { kind: "palset", name, lang: "en", files: { name: "0000.json", mimeType: "application/json", buffer: one } },
    });
    expect(res.status()).toBe(200);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const last = lines.at(-1);
    expect(last.error).toBeUndefined();
    expect(last.result.stats.users).toBe(1);
    expect(query<{ n: number }>("select count(*) n from datasets where name = ?", name)[0].n).toBe(1);
  });
});

test.describe("input limits (issue 23, item 10)", () => {
  test("the memory-build and LLM-judge routes cap their bodies (413 naming the limit) and name only a few unknown users", async () => {
    const api = await apiAs(account("researcher"));
    const [ds] = query<{ id: number }>("select id from datasets where kind = 'palset' order by id limit 1");
    const huge = await api.post("/api/memory/builds", {
      data: { datasetId: ds.id, method: "vanilla-log", users: Array.from({ length: 400_000 }, (_, i) => `nobody-${i}`) },
    });
    expect(huge.status()).toBe(413);
    expect((await huge.json()).error).toMatch(/limited to 65536 bytes/);
    const unknown = await api.post("/api/memory/builds", {
      data: { datasetId: ds.id, method: "vanilla-log", users: Array.from({ length: 3000 }, (_, i) => `nobody-${i}`) },
    });
    expect(unknown.status()).toBe(400);
    const text = await unknown.text();
    expect(text.length).toBeLessThan(600);
    expect(JSON.parse(text).error).toMatch(/has no user "nobody-0", .*"nobody-4" and 2995 more/);
    // The body is read (and capped) before the campaign is looked up.
    const judge = await api.post(`/api/campaigns/999999/llm-judge`, { data: { modelConfig: "judge", pad: "x".repeat(100_000) } });
    expect(judge.status()).toBe(413);
    expect((await judge.json()).error).toMatch(/limited to 16384 bytes/);
  });
});
