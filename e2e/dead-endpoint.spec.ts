import { test, expect } from "./fixtures";
import net from "node:net";
import path from "node:path";
import { e2eState, login, account } from "./state";

/**
 * A judge run against a dead endpoint (issue 44.3): instead of "0/12 judged · running" for minutes, the run
 * pauses after a few attempts that could not connect; the banner shows the error and the hint Admin →
 * Models → Test connection gives, with Resume and Cancel.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const JUDGE = "judge:e2e-dead";

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

test("a judge run against a dead endpoint pauses with the endpoint's error and hint, Resume and Cancel", async ({ page }) => {
  test.setTimeout(120_000);
  const port = await closedPort();
  const dead = `http://127.0.0.1:${port}/v1`;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  try {
    db.prepare(
      "insert into model_settings (name, role, base_url, model) values (?, 'judge', ?, ?) on conflict(name) do update set base_url = excluded.base_url, model = excluded.model",
    ).run(JUDGE, dead, "dead-judge");
  } finally {
    db.close();
  }
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill("Dead endpoint e2e");
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation", "pairwise-demo.jsonl"));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: account("annotator").email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);

  const panel = page.getByTestId("llm-judge");
  await panel.getByLabel("Judge configuration").selectOption(JUDGE);
  await panel.getByRole("button", { name: "Run judge" }).click();
  const banner = panel.getByTestId("llm-run-paused");
  // Five refused attempts with their backoff: seconds, not minutes.
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toContainText(`the endpoint could not be reached (${dead}): 5 attempts in a row could not connect`);
  await expect(banner.getByTestId("llm-run-hint")).toContainText(
    `${dead}: connection refused by 127.0.0.1:${port}; is the server running on that port?`,
  );
  await expect(panel.getByTestId("llm-run-progress")).toContainText("paused — fix the cause, then Resume");
  await page.setViewportSize({ width: 1440, height: 900 });
  await banner.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("judge-dead-endpoint.png") });

  // Cancel: marked cancelled; Resume is still offered (it would pause again while the endpoint is down).
  await banner.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByTestId("llm-run-progress")).toContainText("cancelled");
  await expect(banner.getByRole("button", { name: "Resume" })).toBeVisible();
  await expect(banner.getByRole("button", { name: "Cancel" })).toHaveCount(0);
});
