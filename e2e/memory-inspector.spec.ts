import { test, expect, type Page } from "./fixtures";
import { e2eState, login, account } from "./state";

/** Starts a build of `method` for one demo user from the memory page's form; returns the build id it reports. */
async function startBuild(page: Page, memoryUrl: string, method: string, user: string): Promise<string> {
  await page.goto(memoryUrl);
  const form = page.getByRole("form", { name: "Build memory" });
  await form.locator("select[name=datasetId]").selectOption({ label: "PAL-Set demo (en)" });
  await form.locator("select[name=method]").selectOption(method);
  await form.getByRole("textbox", { name: /Users/ }).fill(user);
  await form.getByRole("button", { name: "Build memory" }).click();
  const started = form.getByRole("status");
  await expect(started).toContainText(/Build #\d+ started/);
  return /#(\d+)/.exec((await started.textContent()) ?? "")![1];
}

/**
 * A researcher builds H2Memory for a demo user against the fake model server (started by the global
 * setup as a test double) and opens the inspector: graph, background, outlines, principles, a call.
 */
test("a researcher builds H2Memory for a demo user with a live progress bar and inspects it", async ({ page }) => {
  test.setTimeout(180_000);
  const base = e2eState().baseURL;
  await login(page, account("researcher"));
  const id = await startBuild(page, `${base}/memory`, "h2memory", "0000");

  // The bar is polled from the server; it ends complete with every session of the user built.
  const bar = page.getByTestId(`build-${id}`);
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("data-status", "complete", { timeout: 150_000 });
  await expect(bar.getByTestId("build-status")).toContainText("7/7 sessions");
  await expect(bar.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "7");

  // Leaving and coming back shows the same build (it lives in the server, not the page).
  await page.reload();
  await expect(page.getByTestId(`build-${id}`)).toHaveAttribute("data-status", "complete");

  // The memory version of user 0000 → the inspector.
  const row = page.getByTestId("memory-table").getByRole("row").filter({ hasText: "PAL-Set demo (en)" }).filter({ hasText: "0000" });
  await row.getByRole("link", { name: "h2memory" }).click();
  await expect(page.getByRole("heading", { name: /h2memory memory of user 0000/ })).toBeVisible();

  const first = page.getByTestId("sessions").locator("details").first();
  await expect(first.locator(".react-flow__node").first()).toBeVisible();
  expect(await first.locator(".react-flow__node").count()).toBeGreaterThanOrEqual(10);
  await expect(first.locator(".react-flow__edge").first()).toBeAttached();
  await expect(first.getByTestId("situations").locator("li").first()).toContainText("Recently the user went through");
  await expect(page.getByTestId("background").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("outline").first()).toContainText("Requirement:");
  await expect(page.getByTestId("principles")).toContainText(/Type: /);
  await expect(page.getByTestId("principles")).toContainText(/Principle: /);

  // The graph fits its frame with the text readable (zoom at least 75%, or panned), and the List view shows
  // the same nodes as text with their relations (issue 25, item 5).
  const zoom = await first
    .locator(".react-flow__viewport")
    .evaluate((el) => Number(/scale\(([\d.]+)\)/.exec((el as HTMLElement).style.transform)?.[1] ?? "0"));
  expect(zoom).toBeGreaterThanOrEqual(0.75);
  await page.setViewportSize({ width: 1440, height: 900 });
  await first.getByTestId("log-graph").scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("h2memory-graph.png") });
  const nodeCount = await first.locator(".react-flow__node").count();
  await first.getByRole("button", { name: "List" }).click();
  const list = first.getByTestId("log-graph-list");
  await expect(list.locator(":scope > li").first()).toContainText("Situation 1");
  await expect(list).toContainText(/caused by →|follows →/);
  await expect(list.locator("ul > li")).toHaveCount(nodeCount);
  await first.getByRole("button", { name: "Graph" }).click();

  // Every entry links to the call that produced it: open one.
  await first.getByTestId("situations").getByTestId("call-link").first().click();
  await expect(page).toHaveURL(/\/memory\/calls\?key=[0-9a-f]{64}/);
  await expect(page.getByTestId("call-request")).toContainText("(h2memory/situation)");
  await expect(page.getByTestId("call-response")).toContainText("situation_aspects");
  await expect(page.getByTestId("call-attempts")).toContainText("h2memory.situation");
});

test("a build the server lost shows as interrupted and resumes from the page", async ({ page }) => {
  test.setTimeout(180_000);
  const s = e2eState();
  // A build row left running by a server process that no longer exists.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(s.dbPath);
  const ds = (db.prepare("select id from datasets where name = ?").get("PAL-Set demo (en)") as { id: number }).id;
  const row = db
    .prepare(
      "insert into memory_builds (dataset_id, method, users, status, sessions_total, sessions_done, pid) values (?, 'h2memory', '[\"0001\"]', 'running', 7, 2, 999999999) returning id",
    )
    .get(ds) as { id: number };
  db.close();

  await login(page, account("researcher"));
  await page.goto(`${s.baseURL}/memory`);
  const lost = page.getByTestId(`build-${row.id}`);
  await expect(lost).toHaveAttribute("data-status", "interrupted");
  await lost.getByRole("button", { name: "Resume" }).click();
  const resumed = page.locator("[data-status]").first();
  await expect(resumed).not.toHaveAttribute("data-testid", `build-${row.id}`);
  await expect(resumed).toHaveAttribute("data-status", "complete", { timeout: 150_000 });
  await expect(resumed.getByTestId("build-status")).toContainText("7/7 sessions");
  await expect(resumed).toContainText("user 0001");
  // The lost build says which build took over and offers no second Resume.
  await page.reload();
  await expect(lost.getByTestId("resumed-as")).toHaveText(/^Resumed as #\d+\.$/);
  await expect(lost.getByRole("button", { name: "Resume" })).toHaveCount(0);
});

test("a baseline's memory entries link to the model calls that produced them", async ({ page }) => {
  test.setTimeout(180_000);
  const base = e2eState().baseURL;
  await login(page, account("researcher"));
  const id = await startBuild(page, `${base}/memory`, "recursum", "0002");
  await expect(page.getByTestId(`build-${id}`)).toHaveAttribute("data-status", "complete", { timeout: 150_000 });

  const row = page.getByTestId("memory-table").getByRole("row").filter({ hasText: "PAL-Set demo (en)" }).filter({ hasText: "0002" });
  await row.getByRole("link", { name: "recursum" }).click();
  await expect(page.getByRole("heading", { name: /recursum memory of user 0002/ })).toBeVisible();

  // A summary entry links to exactly the call it was made from (not the log-summary call of the same
  // session), labelled with what that call did; the call page shows that call.
  const summary = page.getByTestId("generic-memory").getByRole("row").filter({ hasText: "dialogue-summary" }).first();
  // RecurSum's renderer shows the summary as text, not as JSON.
  await expect(summary).toContainText("summary after session");
  await expect(summary).not.toContainText('"summary":');
  await expect(summary.getByTestId("call-link")).toHaveCount(1);
  await expect(summary.getByTestId("call-link")).toHaveText("dialogue-summary call");
  await summary.getByTestId("call-link").click();
  await expect(page).toHaveURL(/\/memory\/calls\?key=[0-9a-f]{64}/);
  await expect(page.getByTestId("call-attempts")).toContainText("recursum.dialogue-summary");
  await expect(page.getByTestId("call-attempts")).not.toContainText("recursum.log-summary");
});

test("MemoryBank's entries read as labelled text: pieces with their date and strength, portraits and summaries as text", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const base = e2eState().baseURL;
  await login(page, account("researcher"));
  const id = await startBuild(page, `${base}/memory`, "memorybank", "0002");
  await expect(page.getByTestId(`build-${id}`)).toHaveAttribute("data-status", "complete", { timeout: 150_000 });
  const row = page.getByTestId("memory-table").getByRole("row").filter({ hasText: "PAL-Set demo (en)" }).filter({ hasText: "0002" });
  await row.getByRole("link", { name: "memorybank" }).click();
  const table = page.getByTestId("generic-memory");
  const event = table.getByRole("row").filter({ has: page.getByRole("cell", { name: "event", exact: true }) });
  await expect(event.first()).toContainText("strength");
  const text = await table.innerText();
  expect(text).not.toContain('{"');
  expect(text).not.toMatch(/^\s*[{}[\]]\s*$/m);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("memorybank-entries.png") });
});
