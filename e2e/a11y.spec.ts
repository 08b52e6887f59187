import AxeBuilder from "@axe-core/playwright";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test, expect, type Page } from "./fixtures";
import { e2eState, login, account } from "./state";
import { demoRunArgs } from "./pal-run-args";
import { startFakeOpenAI } from "../test/fake-openai";
import { experimentReplies } from "../test/experiment-replies";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A small finished experiment (two methods, one user) so its page, the one with the most figures, is checked too. */
async function demoExperiment(): Promise<number> {
  const fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  const env = {
    ...process.env,
    PAL_DB: e2eState().dbPath,
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "e2e-fake-key",
    PAL_MODEL_ASSISTANT: "e2e-a11y-assistant",
    PAL_MODEL_JUDGE: "e2e-a11y-judge",
  };
  try {
    // Not spawnSync: the test double answers from this process.
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn("node", ["bin/pal.mjs", ...demoRunArgs("vanilla,vanilla-log", "--json")], { env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`pal run failed: ${stderr}`))));
    });
    return (JSON.parse(out) as { experiment: number }).experiment;
  } finally {
    await fake.close();
  }
}

/**
 * Accessibility (issue 44.9): zero serious or critical axe violations on every page each role sees (WCAG
 * 2.1 AA rules). Each page's counts by rule are written to the test's output (axe-counts.json) and logged,
 * so a regression names its page and rule.
 */
const PAGES: Record<string, string[]> = {
  admin: [
    "/",
    "/experiments",
    "/datasets",
    "/campaigns",
    "/campaigns/new",
    "/agreement",
    "/memory",
    "/admin/users",
    "/admin/models",
    "/admin/settings",
  ],
  annotator: ["/annotate"],
};

async function serious(page: Page): Promise<Record<string, number>> {
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const out: Record<string, number> = {};
  for (const v of r.violations)
    if (v.impact === "serious" || v.impact === "critical") {
      out[`${v.id} (${v.impact})`] = (out[`${v.id} (${v.impact})`] ?? 0) + v.nodes.length;
      // Where, so a failure can be found: the first few elements' selectors.
      console.log(
        `${page.url()} ${v.id}: ${v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`)
          .join(" | ")}`,
      );
    }
  return out;
}

/** A pairwise campaign with the first annotator, so the campaign page and an annotation task are checked. */
async function demoCampaign(page: Page): Promise<number> {
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  await page.getByLabel("Name").fill("A11y e2e");
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation", "pairwise-demo.jsonl"));
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: account("annotator").email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  return Number(page.url().split("/").pop());
}

// One experiment for both tests: a second run of the same methods on the same user would join the first's memory.
test.describe.configure({ mode: "serial" });
let exp = 0;
test.beforeAll(async () => {
  test.setTimeout(240_000);
  exp = await demoExperiment();
});

test("no serious or critical axe violation on any page", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const counts: Record<string, Record<string, number>> = {};
  const base = e2eState().baseURL;
  const campaign = await demoCampaign(page);
  await page.context().clearCookies();
  await page.goto(`${base}/login`);
  counts["/login"] = await serious(page);
  await login(page, account("admin"));
  // The pages behind the lists: the first data set, experiment and campaign the demo holds.
  const firstLink = async (list: string, re: RegExp) => {
    await page.goto(`${base}${list}`);
    const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    return hrefs.find((h) => re.test(h)) ?? null;
  };
  const extra = [
    await firstLink("/datasets", /^\/datasets\/\d+$/),
    `/experiments/${exp}`,
    `/experiments/${exp}/case-studies`,
    `/campaigns/${campaign}`,
  ].filter((h): h is string => h !== null);
  for (const p of [...PAGES.admin, ...extra]) {
    await page.goto(`${base}${p}`);
    await page.waitForLoadState("networkidle");
    counts[p] = await serious(page);
  }
  const ctx = await browser.newContext();
  const ann = await ctx.newPage();
  await login(ann, account("annotator"));
  for (const p of PAGES.annotator) {
    await ann.goto(`${base}${p}`);
    counts[`${p} (annotator)`] = await serious(ann);
  }
  const task = (await ann.locator("a[href^='/annotate/']").evaluateAll((as) => as.map((a) => a.getAttribute("href"))))[0];
  if (task) {
    await ann.goto(`${base}${task}`);
    await ann.waitForLoadState("networkidle");
    counts[`${task} (annotator)`] = await serious(ann);
  }
  await ctx.close();
  fs.writeFileSync(test.info().outputPath("axe-counts.json"), JSON.stringify(counts, null, 2));
  console.log(
    `axe serious/critical per page:\n${Object.entries(counts)
      .map(([p, c]) => `${p}: ${JSON.stringify(c)}`)
      .join("\n")}`,
  );
  const failing = Object.entries(counts).filter(([, c]) => Object.keys(c).length > 0);
  expect(failing, "pages with serious or critical axe violations").toEqual([]);
});

test("highlighting with the keyboard: Tab to a block, Shift+arrows, M, then a colour", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/experiments/${exp}`);
  const job = page.locator(`a[href^='/experiments/${exp}/jobs/']`).first();
  await job.waitFor();
  await page.goto(`${e2eState().baseURL}${await job.getAttribute("href")}`);
  const block = page.locator("[data-block]").first();
  await block.focus();
  await expect(block).toBeFocused();
  await page.keyboard.press("Home");
  for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+ArrowRight");
  const selected = await page.evaluate(() => window.getSelection()?.toString() ?? "");
  expect(selected.length).toBeGreaterThan(0);
  await page.keyboard.press("m");
  const bar = page.getByTestId("mark-bar");
  await expect(bar).toBeVisible();
  await expect(bar.getByLabel("Note (optional)")).toBeFocused();
  // The text is not editable: the key that opened the bar typed nothing.
  expect(await block.innerText()).not.toMatch(/^m/);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(bar).toHaveCount(0);
  await expect(block.locator("mark")).toHaveText(selected);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("keyboard-highlight.png") });
});
