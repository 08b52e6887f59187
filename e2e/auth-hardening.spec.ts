import { test, expect } from "@playwright/test";
import { e2eState, account } from "./state";

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
      expect(new URL(page.url()).host, query).toBe(base.host);
      await page.getByTestId("current-user").waitFor();
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
