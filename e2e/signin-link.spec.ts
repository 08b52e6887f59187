import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./fixtures";
import { e2eState, login, account, pal } from "./state";

/**
 * A one-time sign-in link (issue 44.7): the admin issues it on Admin → Users and sees it once; a fresh
 * browser opens it and is signed in as that user on pressing Sign in; a second open, in another fresh
 * browser, is refused with a page saying the link was used; a revoked link says so too.
 * Set PAPER_SHOTS=<dir> to save screenshots (1440x900; the link's page also at 390x844).
 */
const SHOTS = process.env.PAPER_SHOTS;
const shot = async (page: import("@playwright/test").Page, name: string) => {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name) });
};

test("the admin issues a sign-in link; it signs the user in once, then a second open is refused", async ({ page, browser }) => {
  const email = "link-user@pal.local";
  pal("user", "add", "--email", email, "--role", "researcher", "--password", "link-user-password-1");
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("admin"));
  await page.goto(`${e2eState().baseURL}/admin/users`);
  const row = page.locator(`tr[data-email="${email}"]`);
  await row.getByTestId("issue-link").click();
  const url = (await row.getByTestId("issued-link-url").textContent())!.trim();
  expect(url).toMatch(new RegExp(`^${e2eState().baseURL}/signin-link/[A-Za-z0-9_-]{43}$`));
  await expect(row.getByTestId("issued-link")).toContainText(`Sign-in link for ${email} (shown once`);
  await expect(row.getByTestId("open-link")).toHaveCount(1);
  await shot(page, "admin-users-sign-in-link.png");
  // Shown once: a reload lists the open link with its expiry, never the address again.
  await page.reload();
  await expect(row.getByTestId("open-link")).toContainText("link open until");
  await expect(row.getByTestId("issued-link-url")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(url.split("/").pop()!);

  // A fresh browser: no session; the link's page names the account and signs in on the button.
  const first = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p1 = await first.newPage();
  await p1.goto(url);
  await expect(p1.getByTestId("link-email")).toHaveText(email);
  await shot(p1, "signin-link-390.png");
  await p1.setViewportSize({ width: 1440, height: 900 });
  await shot(p1, "signin-link-1440.png");
  await p1.getByTestId("link-sign-in").click();
  await expect(p1.getByTestId("current-user")).toHaveText(email);
  await expect(p1.getByTestId("current-role")).toHaveText("researcher");
  await expect(p1).toHaveURL(/\/datasets$/);
  // The session is a real one: a page only a signed-in researcher may read opens.
  expect((await p1.goto(`${e2eState().baseURL}/experiments`))?.status()).toBe(200);
  await first.close();

  // A second open, in another fresh browser: refused, saying why, and nobody is signed in.
  const second = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p2 = await second.newPage();
  await p2.goto(url);
  await expect(p2.getByTestId("link-refused")).toHaveText("This link cannot sign you in");
  await expect(p2.getByTestId("link-refusal")).toContainText("This sign-in link was already used");
  await expect(p2.getByTestId("link-sign-in")).toHaveCount(0);
  await shot(p2, "signin-link-used-390.png");
  expect((await p2.goto(`${e2eState().baseURL}/experiments`, { waitUntil: "commit" }))?.url()).toMatch(/\/login/);
  await second.close();

  // The used link is no longer open on Admin → Users; a new one, revoked there, refuses too.
  await page.reload();
  await expect(row.getByTestId("open-link")).toHaveCount(0);
  await row.getByTestId("issue-link").click();
  const url2 = (await row.getByTestId("issued-link-url").textContent())!.trim();
  expect(url2).not.toBe(url);
  await row.getByTestId("revoke-link").click();
  await expect(row.getByText(`Revoked the sign-in link of ${email}.`)).toBeVisible();
  await expect(row.getByTestId("open-link")).toHaveCount(0);
  const third = await browser.newContext();
  const p3 = await third.newPage();
  await p3.goto(url2);
  await expect(p3.getByTestId("link-refusal")).toHaveText("This sign-in link was revoked. Ask your admin for a new one.");
  await third.close();
});
