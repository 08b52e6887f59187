import { test, expect, allowConsoleErrors, pageStatus, requestStatus } from "./fixtures";

/**
 * The shared fixture (e2e/fixtures.ts) itself: a page that logs a console error or throws fails its test,
 * whichever way the page was opened; an allowed pattern lets only the error it names through.
 * test.fail() marks the tests that must fail: each passes only if the fixture failed it.
 */
const LOGS_ERROR = `<script>console.error("deliberate console error")</script><p>logs an error</p>`;
const THROWS = `<script>setTimeout(() => { throw new Error("deliberate uncaught error") })</script><p>throws</p>`;

test("a console error on the test's page fails the test", async ({ page }) => {
  test.fail();
  await page.setContent(LOGS_ERROR);
  await expect(page.getByText("logs an error")).toBeVisible();
});

test("an uncaught exception on a page of a context the test made fails the test", async ({ browser }) => {
  test.fail();
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.setContent(THROWS);
  await page.waitForTimeout(200);
  await ctx.close();
});

test("a console error on a page from browser.newPage() fails the test", async ({ browser }) => {
  test.fail();
  const page = await browser.newPage();
  await page.setContent(LOGS_ERROR);
  await page.waitForTimeout(200);
  await page.close();
});

test("an allowed error passes", async ({ page }) => {
  allowConsoleErrors(/deliberate console error/);
  await page.setContent(LOGS_ERROR);
  await page.waitForTimeout(200);
});

test("an allowed pattern lets no other error through", async ({ page }) => {
  test.fail();
  allowConsoleErrors(/some other error/);
  await page.setContent(LOGS_ERROR);
  await page.waitForTimeout(200);
});

test("a clean page passes", async ({ page }) => {
  await page.setContent("<p>clean</p>");
  await expect(page.getByText("clean")).toBeVisible();
});

test("pageStatus and requestStatus match only the page's own status, or the named request's", () => {
  const page = "http://localhost:1/datasets/9: Failed to load resource: the server responded with a status of 404 (Not Found)";
  const req = `http://localhost:1/login: Failed to load resource: the server responded with a status of 401 (Unauthorized) (at http://localhost:1/api/auth/callback/credentials)`;
  expect(pageStatus(404).test(page)).toBe(true);
  expect(pageStatus(403).test(page)).toBe(false);
  expect(pageStatus(401).test(req)).toBe(false);
  expect(requestStatus(401, "/api/auth/callback/credentials").test(req)).toBe(true);
  expect(requestStatus(401, "/api/campaigns").test(req)).toBe(false);
  expect(requestStatus(404, "/datasets/9").test(page)).toBe(false);
});
