import { test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";

/**
 * The e2e suite's `test`: every page a test opens (through `page`/`context`, or any context it makes with
 * `browser.newContext()` / `browser.newPage()`) is watched for console errors and uncaught exceptions, and
 * the test fails at teardown listing them (page URL + text). A hydration mismatch, a React warning logged as
 * an error, an invalid `pattern` attribute or a failed fetch is a bug a user would meet, so it is not
 * silenced here: only an error the test provokes on purpose may be allowed, per test and narrowly, with
 * `allowConsoleErrors(/regex/)` inside the test (or `test.use({ allowConsoleErrors: [...] })` for a block).
 * A pattern is matched against "URL: text (at resource URL)", so it can name the refused request.
 */

// Everything else (expect, the types) as @playwright/test has it; the local `test` below takes precedence.
export * from "@playwright/test";

type Recorder = { errors: string[]; allowed: RegExp[] };

/** The running test's recorder. A worker runs one test at a time, so one slot per worker process suffices. */
let active: Recorder | null = null;
const watched = new WeakSet<object>();

/**
 * A context made during a test reports to that test's recorder, so a page a test leaves open cannot fail a
 * later test; one made outside a test (beforeAll) reports to whichever test is running when it logs.
 */
type Sink = () => Recorder | null;

function watchPage(page: Page, sink: Sink) {
  if (watched.has(page)) return;
  watched.add(page);
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const at = m.location()?.url;
    // "Failed to load resource" names no URL in its text; Chromium gives the resource as the location.
    sink()?.errors.push(`${page.url()}: ${m.text()}${at && at !== page.url() ? ` (at ${at})` : ""}`);
  });
  page.on("pageerror", (e) => sink()?.errors.push(`${page.url()}: uncaught ${e.name}: ${e.message}`));
}

function watchContext(ctx: BrowserContext) {
  if (watched.has(ctx)) return;
  watched.add(ctx);
  const owner = active;
  const sink: Sink = owner ? () => owner : () => active;
  for (const p of ctx.pages()) watchPage(p, sink);
  ctx.on("page", (p) => watchPage(p, sink));
}

/** Wraps the worker's browser once so that contexts and pages a test makes itself are watched too. */
function wrapBrowser(browser: Browser) {
  if (watched.has(browser)) return;
  watched.add(browser);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const ctx = await newContext(...args);
    watchContext(ctx);
    return ctx;
  };
  // Browser.newPage goes through this.newContext (the wrapped one above); watch its context in any case.
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args: Parameters<Browser["newPage"]>) => {
    const page = await newPage(...args);
    watchContext(page.context());
    return page;
  };
}

/** Allows console errors matching `patterns` in the current test only (an error the test provokes on purpose). */
export function allowConsoleErrors(...patterns: RegExp[]) {
  if (!active) throw new Error("allowConsoleErrors() is called inside a test");
  active.allowed.push(...patterns);
  for (const p of patterns) base.info().annotations.push({ type: "allowed console error", description: String(p) });
}

const FAILED_LOAD = "Failed to load resource: the server responded with a status of";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The page's own document answered `status` (Chromium logs it): for a test that visits a refused or missing page on purpose. */
export function pageStatus(status: number): RegExp {
  return new RegExp(`^\\S+: ${FAILED_LOAD} ${status} \\([^)]*\\)$`);
}

/** A request of the page to a URL containing `path` answered `status`: for a test that provokes that refusal on purpose. */
export function requestStatus(status: number, path: string): RegExp {
  return new RegExp(`^\\S+: ${FAILED_LOAD} ${status} \\([^)]*\\) \\(at \\S*${escape(path)}\\S*\\)$`);
}

export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleErrorGuard: void }>({
  allowConsoleErrors: [[], { option: true }],
  browser: [
    async ({ browser }, provide) => {
      wrapBrowser(browser);
      await provide(browser);
    },
    { scope: "worker" },
  ],
  context: async ({ context }, provide) => {
    watchContext(context);
    await provide(context);
  },
  consoleErrorGuard: [
    async ({ allowConsoleErrors: allowed }, provide) => {
      const rec: Recorder = { errors: [], allowed: [...allowed] };
      active = rec;
      try {
        await provide();
      } finally {
        active = null;
      }
      const unexpected = rec.errors.filter((e) => !rec.allowed.some((re) => re.test(e)));
      if (unexpected.length > 0) {
        throw new Error(`console errors on the pages this test visited (${unexpected.length}):\n  ${unexpected.join("\n  ")}`);
      }
    },
    { auto: true },
  ],
});
