import { test, expect, allowConsoleErrors, requestStatus } from "./fixtures";
import Database from "better-sqlite3";
import fs from "node:fs";
import { e2eState, login, account, pal } from "./state";
import { apiAs, signIn } from "./api-client";

test("ten wrong passwords lock the email for the window, even for the right password", async ({ page }) => {
  allowConsoleErrors(requestStatus(401, "/api/auth/callback/credentials")); // the wrong passwords, on purpose
  const email = "lockout@pal.local";
  const password = "right-password-9";
  pal("user", "add", "--email", email, "--role", "annotator", "--password", password);
  const ctx = await apiAs(null);
  for (let i = 0; i < 10; i++) {
    const r = await signIn(ctx, email, `wrong-${i}`);
    expect(r.ok).toBe(false);
    expect(r.error).toBe("invalid");
  }
  const locked = await signIn(ctx, email, password);
  expect(locked.ok).toBe(false);
  expect(locked.error).toBe("locked");
  // the login form says so
  await page.goto(`${e2eState().baseURL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Too many failed attempts for this account")).toBeVisible();
  // another account is not affected
  expect((await signIn(await apiAs(null), account("researcher").email, account("researcher").password)).ok).toBe(true);
});

test("passwords are stored only as bcrypt hashes and never appear in the database file or the server output", async () => {
  const s = e2eState();
  const db = new Database(s.dbPath, { readonly: true });
  const rows = db.prepare("select email, password_hash from users").all() as Array<{ email: string; password_hash: string }>;
  db.close();
  expect(rows.length).toBeGreaterThanOrEqual(4);
  for (const r of rows) expect(r.password_hash).toMatch(/^\$2[aby]\$10\$/);
  const files = [s.dbPath, `${s.dbPath}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
  for (const a of s.accounts) {
    for (const bytes of files) expect(bytes.includes(Buffer.from(a.password)), `${a.email}'s password in the db file`).toBe(false);
  }
});

test("an admin adds a user, changes the role and disables the account, which then cannot sign in", async ({ page }) => {
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/users`);
  const form = page.getByRole("form", { name: "Add user" });
  await form.getByLabel("Email").fill("new.annotator@pal.local");
  await form.getByLabel("Role").selectOption("annotator");
  await form.getByRole("button", { name: "Add user" }).click();
  const password = await page.getByTestId("generated-password").textContent();
  expect(password).toMatch(/^\S{16}$/);
  const row = page.locator('tr[data-email="new.annotator@pal.local"]');
  await expect(row).toBeVisible();
  expect((await signIn(await apiAs(null), "new.annotator@pal.local", password!)).ok).toBe(true);

  await row.getByLabel("Role of new.annotator@pal.local").selectOption("researcher");
  await row.getByRole("button", { name: "Save" }).click();
  // the select shows the new value at once; the server action's write lands a moment later
  await expect.poll(() => pal("user", "list")).toMatch(/researcher\s+new\.annotator@pal\.local/);

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByText("disabled")).toBeVisible();
  expect((await signIn(await apiAs(null), "new.annotator@pal.local", password!)).ok).toBe(false);
});

test("a disabled account loses access at once, even with a session it already had", async () => {
  const email = "soon.disabled@pal.local";
  pal("user", "add", "--email", email, "--role", "researcher", "--password", "researcher-pass-2");
  const ctx = await apiAs({ role: "researcher", email, password: "researcher-pass-2" });
  expect((await ctx.get("/api/me")).status()).toBe(200);
  const admin = await apiAs(account("admin"));
  const list = await (await admin.get("/api/admin/users")).json();
  const id = list.find((u: { email: string }) => u.email === email).id;
  expect((await admin.patch(`/api/admin/users/${id}`, { data: { disabled: true } })).status()).toBe(200);
  expect((await ctx.get("/api/me")).status()).toBe(401);
});
