import { test, expect, type Page, allowConsoleErrors, pageStatus } from "./fixtures";
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { e2eState, account, login, pal } from "./state";
import { apiAs, signIn } from "./api-client";

const url = (p: string) => `${e2eState().baseURL}${p}`;

/**
 * Issue 14 item 1: callbacks whose dot segments collapse into `//evil.example`. Each is sent as the
 * probe typed it (the query decodes `%2e` to `.`) and fully percent-encoded (the page gets the literal
 * value). After a real sign-in, Chromium must still be on the app.
 */
const OFFSITE = [
  "/.//evil.example/phish",
  "/..//evil.example",
  "/%2e//evil.example",
  "..//evil.example",
  ".//evil.example",
  "/x/../\\evil.example",
  "/%2e%2e//evil.example/x",
  "/./%5Cevil.example",
];

test("after a real sign-in, no dot-segment callback leaves the app", async ({ page }) => {
  allowConsoleErrors(pageStatus(404)); // a dot-segment callback lands on the app's own 404 page
  test.setTimeout(180_000);
  const base = new URL(e2eState().baseURL);
  const offsite: string[] = [];
  await page.route(
    (u) => u.hostname === "evil.example",
    (r) => {
      offsite.push(r.request().url());
      return r.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
    },
  );
  for (const raw of OFFSITE) {
    for (const query of [raw, encodeURIComponent(raw)]) {
      await page.context().clearCookies();
      await page.goto(url(`/login?callbackUrl=${query}`));
      await page.getByLabel("Email").fill(account("researcher").email);
      await page.getByLabel("Password").fill(account("researcher").password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((u) => u.host !== base.host || !u.pathname.startsWith("/login"));
      await page.waitForLoadState("load");
      expect(new URL(page.url()).host, query).toBe(base.host);
      // Signed in, and on a page of the app (the home page, or a 404 of the app for a path such as /evil.example).
      expect((await page.request.get(url("/api/me"))).status(), query).toBe(200);
    }
  }
  expect(offsite).toEqual([]);
});

test("a callback inside the app is still followed after sign-in", async ({ page }) => {
  await page.goto(url(`/login?callbackUrl=${encodeURIComponent("/x/../datasets?page=1")}`));
  await page.getByLabel("Email").fill(account("researcher").email);
  await page.getByLabel("Password").fill(account("researcher").password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/datasets");
  await page.getByTestId("current-user").waitFor();
});

const ROOT = path.resolve(import.meta.dirname, "..");
const campaignStatus = (id: number) => {
  const d = new Database(e2eState().dbPath, { readonly: true });
  try {
    return (d.prepare("select status from campaigns where id = ?").get(id) as { status: string }).status;
  } finally {
    d.close();
  }
};

/** The hidden fields React renders into a server-action form for browsers without JavaScript ($ACTION_…), in order. */
type ActionFields = Array<[string, string]>;

const unescapeHtml = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A campaign made through the page, and its Close form's server-action fields, read from the page's HTML. */
async function campaignWithCloseAction(page: Page, guidelines?: string): Promise<{ id: number; actionFields: ActionFields }> {
  await login(page, account("researcher"));
  await page.goto(url("/campaigns/new"));
  await page.getByLabel("Name").fill(`Origin rule e2e ${Date.now()}`);
  await page.getByLabel("Kind").selectOption({ label: "HiCUPID A/B/Tie" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/hicupid-ab-demo.jsonl"));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: account("annotator").email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  if (guidelines !== undefined) await page.getByLabel("Guidelines (Markdown)").fill(guidelines);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());
  // The server's HTML (what a browser without JavaScript gets), not the client-rendered DOM.
  const html = await (await page.request.get(url(`/campaigns/${id}`))).text();
  // The Close form (the one that posts status=closed); a plain action form has $ACTION_ID_<id>, a form with
  // state (useActionState) has $ACTION_REF_n, $ACTION_n:0 (id and bound arguments) and $ACTION_KEY.
  const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]).find((f) => /name="status" value="closed"/.test(f));
  const actionFields: ActionFields = [...(form ?? "").matchAll(/<input type="hidden" name="(\$ACTION[^"]*)"(?: value="([^"]*)")?/g)].map(
    (m) => [m[1], unescapeHtml(m[2] ?? "")],
  );
  expect(actionFields.length, "the Close button is a server-action form").toBeGreaterThan(0);
  expect(campaignStatus(id)).toBe("open");
  return { id, actionFields };
}

function mpaBody(actionFields: ActionFields, id: number) {
  const part = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return [...actionFields.map(([n, v]) => part(n, v)), part("campaignId", String(id)), part("status", "closed")].join("") + "--x--\r\n";
}

const escapeAttr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

test.describe("issue 14 item 6: no-JavaScript server-action form posts go through the origin rule", () => {
  test("from another site's page in Chromium, and by script without Origin: a clear 403, the campaign stays open", async ({ page }) => {
    allowConsoleErrors(pageStatus(403)); // the cross-site post's answer, on purpose
    const { id, actionFields } = await campaignWithCloseAction(page);

    // The attacker's page: same host (localhost, so the Lax session cookie is sent), another port,
    // auto-submitting the Close form as a browser without JavaScript on our page would.
    const html = `<!doctype html><form id=f method=POST enctype=multipart/form-data action="${url(`/campaigns/${id}`)}">
      ${actionFields.map(([n, v]) => `<input type=hidden name="${escapeAttr(n)}" value="${escapeAttr(v)}">`).join("")}<input type=hidden name=campaignId value="${id}">
      <input type=hidden name=status value=closed></form><script>document.getElementById("f").submit()</script>`;
    const evil = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
    const port = (evil.address() as net.AddressInfo).port;
    try {
      const answered = page.waitForResponse((r) => r.url().endsWith(`/campaigns/${id}`) && r.request().method() === "POST");
      await page.goto(`http://localhost:${port}/`);
      const res = await answered;
      expect(res.status()).toBe(403);
      expect(await res.text()).toContain("cross-site request refused");
    } finally {
      evil.close();
    }
    expect(campaignStatus(id)).toBe("open");

    // The probe's request: no Origin, Sec-Fetch-Site: cross-site, a valid session cookie.
    const script = await apiAs(account("researcher"), { origin: null });
    const headers = { "content-type": "multipart/form-data; boundary=x" };
    const r1 = await script.post(`/campaigns/${id}`, {
      headers: { ...headers, "sec-fetch-site": "cross-site" },
      data: mpaBody(actionFields, id),
      maxRedirects: 0,
    });
    expect(r1.status()).toBe(403);
    expect(await r1.text()).toContain("cross-site request refused");
    // Same scheme check as everywhere: https on the app's host and port is another origin.
    const tls = await apiAs(account("researcher"), { origin: e2eState().baseURL.replace(/^http:/, "https:") });
    const r2 = await tls.post(`/campaigns/${id}`, { headers, data: mpaBody(actionFields, id), maxRedirects: 0 });
    expect(r2.status()).toBe(403);
    expect(campaignStatus(id)).toBe("open");

    // Control: the same post from the app's own origin does close it, so the refusals above are the rule's.
    const own = await apiAs(account("researcher"));
    const r3 = await own.post(`/campaigns/${id}`, { headers, data: mpaBody(actionFields, id), maxRedirects: 0 });
    expect(r3.status()).toBeLessThan(400);
    expect(campaignStatus(id)).toBe("closed");
  });
});

test("issue 14 item 12: a session cookie copied before sign-out no longer works after it", async ({ page, browser }) => {
  await login(page, account("researcher"));
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toBeTruthy();

  // Another browser replaying the copied cookie is signed in, as long as the owner is.
  const thief = await browser.newContext();
  await thief.addCookies([session!]);
  expect((await thief.request.get(url("/api/me"))).status()).toBe(200);
  // A second, independent session of the same user (another browser of theirs).
  const other = await apiAs(account("researcher"));

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);

  const replay = thief.request;
  expect((await replay.get(url("/api/me"))).status()).toBe(401);
  const pageAfter = await replay.get(url("/datasets"), { maxRedirects: 0 });
  expect(pageAfter.status()).toBeGreaterThanOrEqual(300);
  expect(pageAfter.status()).toBeLessThan(400);
  expect(pageAfter.headers()["location"] ?? "").toContain("/login");
  expect(await (await replay.get(url("/api/auth/session"))).json()).not.toHaveProperty("user");
  // Signing out one session leaves the user's other sessions alone.
  expect((await other.get("/api/me")).status()).toBe(200);
  await thief.close();
});

test("issue 14 item 12: sign-in refuses a 72-byte password followed by anything", async () => {
  const email = `long-pw-${Date.now()}@x.org`;
  const password = "Lp-".repeat(24); // 72 bytes, bcrypt's limit
  pal("user", "add", "--email", email, "--role", "annotator", "--password", password);
  for (const suffix of ["x", "-anything-at-all"]) {
    const r = await signIn(await apiAs(null), email, password + suffix);
    expect(r.ok, suffix).toBe(false);
    expect(r.error).toBe("invalid");
  }
  expect((await signIn(await apiAs(null), email, password)).ok).toBe(true);
});

test("issue 14 item 12: guideline images load only from the app or data:, others become links", async ({ page, browser }) => {
  const pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
  const guidelines = [
    "## Read me",
    "![our scale](/icon.svg)",
    `![inline](${pixel})`,
    "![tracker](https://tracker.example/pixel.gif?who=annotator)",
    "![sneaky](//tracker.example/p2.gif)",
  ].join("\n\n");
  const { id } = await campaignWithCloseAction(page, guidelines);

  const ctx = await browser.newContext();
  const offsite: string[] = [];
  await ctx.route(
    (u) => u.hostname.endsWith("tracker.example"),
    (r) => {
      offsite.push(r.request().url());
      return r.fulfill({ status: 200, contentType: "image/gif", body: "" });
    },
  );
  const ann = await ctx.newPage();
  await login(ann, account("annotator"));
  await ann.goto(url(`/annotate/${id}`));
  // The guidelines are open beside the first item.
  const box = ann.getByRole("region", { name: /^Guidelines/ });
  await expect(box).toContainText("Read me");
  await expect(box.getByRole("img", { name: "our scale" })).toBeVisible();
  await expect(box.getByRole("img", { name: "inline" })).toBeVisible();
  await expect(box.getByRole("img")).toHaveCount(2);
  await expect(box.getByTestId("guideline-image-link")).toHaveText(["image: tracker", "image: sneaky"]);
  await ann.waitForLoadState("networkidle");
  expect(offsite).toEqual([]);
  await ann.setViewportSize({ width: 1440, height: 900 });
  await box.scrollIntoViewIfNeeded();
  await box.screenshot({ path: test.info().outputPath("sec-guideline-images.png") });
  await ctx.close();
});

test("issue 14 item 7: a saved key the current encryption key cannot open is a clear message on Admin → Models, and re-entering fixes it", async ({
  page,
}) => {
  const name = "judge:sec-stale";
  // A key saved under another encryption key (as after PAL_SECRET_KEY or the key file changed): same format, other key.
  const other = crypto.randomBytes(32);
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", other, iv);
  const data = Buffer.concat([c.update("sk-old", "utf8"), c.final()]);
  const enc = ["v1", iv, c.getAuthTag(), data].map((x) => (typeof x === "string" ? x : x.toString("base64url"))).join(":");
  const rw = new Database(e2eState().dbPath);
  rw.prepare(
    "insert into model_settings (name, role, base_url, api_key_enc, model, created_at) values (?, 'judge', 'http://127.0.0.1:9/v1', ?, 'm', ?)",
  ).run(name, enc, Date.now());
  try {
    await login(page, account("admin"));
    await page.goto(url("/admin/models"));
    const card = page.getByTestId(`model-${name}`);
    await expect(card.getByTestId("key-status")).toHaveText("unreadable");
    await expect(card.getByTestId("key-error")).toContainText("saved keys cannot be decrypted: re-enter them");
    await card.getByRole("button", { name: "Test connection" }).click();
    await expect(card.getByRole("status")).toContainText(`failed: ${name}: saved keys cannot be decrypted: re-enter them`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: test.info().outputPath("sec-models-unreadable-key.png") });

    await card
      .getByRole("form", { name: `Settings of ${name}` })
      .getByLabel(/API key/)
      .fill("sk-new");
    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(`Saved ${name}.`)).toBeVisible();
    await page.reload();
    await expect(page.getByTestId(`model-${name}`).getByTestId("key-status")).toHaveText("set");
    await expect(page.getByTestId(`model-${name}`).getByTestId("key-error")).toHaveCount(0);
  } finally {
    rw.prepare("delete from model_settings where name = ?").run(name);
    rw.close();
  }
});
