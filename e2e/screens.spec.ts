import { test, expect, type Page } from "./fixtures";
import path from "node:path";
import { e2eState, login, account, type Account } from "./state";
import { annotatorPage } from "./annotate";
import { type FakeOpenAI } from "../test/fake-openai";
import { startNamedJudge } from "./named-judge";

/**
 * Issue 18's annotator and PI screens: the pairwise item (dialogues first, the user's information in
 * a side panel, guidelines one key away), the completion screen, keyboard scrolling of inner panes,
 * the campaign form's blinding and k checks. Screenshots go to SHOTS (1440×900) when it is set.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const SHOTS = process.env.PAL_SHOTS ?? "";
test.describe.configure({ mode: "serial" });

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `screens-${name}.png`) });
}

/** Fails the test on any console error or uncaught page error. */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

const annotator = (): Account => e2eState().accounts.find((a) => a.role === "annotator")!;

test("campaign form: nobody pre-ticked, k bounded by the chosen annotators, a warning when a system is named", async ({ page }) => {
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns/new`);
  for (const box of await page.getByRole("checkbox").all()) await expect(box).not.toBeChecked();
  // The name is the researchers' own (annotators never see it); their title is what must not name a system.
  await page.getByLabel("Name (researchers only)").fill("h2memory pilot");
  await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
  await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"));
  await expect(page.getByLabel("Title shown to annotators")).toHaveAttribute("placeholder", "Compare two dialogues");
  await expect(page.getByTestId("names-system-warning")).toHaveCount(0);
  await page.getByLabel("Title shown to annotators").fill("h2memory pilot");
  await expect(page.getByTestId("names-system-warning")).toContainText("title shown to annotators mentions “h2memory”");
  await page.getByRole("checkbox", { name: annotator().email }).check();
  await page.getByLabel("Annotations per item (k)").fill("2");
  await expect(page.getByText("k = 2 needs at least 2 annotators; 1 chosen.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create campaign" })).toBeDisabled();
  await shot(page, "campaign-form");
  // The items file's format example scrolls inside its box: the form keeps its width.
  const form = page.locator("form").filter({ has: page.getByLabel("Items file") });
  expect(await form.evaluate((f) => f.scrollWidth <= f.clientWidth)).toBe(true);
  // Blinding cannot be clicked past: with a system in the title, only the explicit override enables the button.
  await page.getByLabel("Annotations per item (k)").fill("1");
  await expect(page.getByRole("button", { name: "Create campaign" })).toBeDisabled();
  await page.getByLabel("Show these names to annotators anyway").check();
  await expect(page.getByRole("button", { name: "Create campaign" })).toBeEnabled();
  await page.getByLabel("Show these names to annotators anyway").uncheck();
  await page.getByLabel("Name (researchers only)").fill(`Dialogue pilot (h2memory vs vanilla-log) ${Date.now()}`);
  await page.getByLabel("Title shown to annotators").fill("");
  await expect(page.getByTestId("names-system-warning")).toHaveCount(0);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  // Only the ticked annotator has work.
  await expect(page.getByTestId("progress-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("progress-table")).toContainText(annotator().email);
  expect(errors).toEqual([]);
});

test("an annotator completes a pairwise campaign: dialogues first, user card aside, guidelines on G, panes scroll from the keyboard, completion screen", async ({
  page,
  browser,
}) => {
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/campaigns`);
  await page
    .getByRole("link", { name: /^Dialogue pilot/ })
    .first()
    .click();
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());

  const { ctx, page: ann } = await annotatorPage(browser, annotator());
  const errors = watchConsole(ann);
  await ann.setViewportSize({ width: 1440, height: 900 });
  await ann.goto(`${e2eState().baseURL}/annotate/${id}`);
  const progress = ann.getByTestId("progress");
  await expect(progress).toHaveText(/^0 \/ 6 done/);
  await expect(ann.getByTestId("item-headline")).not.toHaveText("Loading…");
  // The annotator reads the neutral title, never the researchers' name nor a system's (issue 40.15).
  await expect(ann.getByText("Compare two dialogues").first()).toBeVisible();
  for (const hidden of ["Dialogue pilot", "h2memory", "vanilla-log"]) await expect(ann.locator("body")).not.toContainText(hidden);
  // First item: the guidelines are open beside the dialogues; the user's information is a card, not JSON.
  await expect(ann.getByRole("region", { name: /^Guidelines/ })).toBeVisible();
  await expect(ann.getByTestId("user-info")).toContainText("Profile");
  await expect(ann.getByTestId("user-info")).not.toContainText("{");
  const d1 = await ann.getByRole("region", { name: "Dialogue 1 (first)" }).boundingBox();
  const info = await ann.getByRole("region", { name: "User information" }).boundingBox();
  expect(d1!.x).toBeLessThan(info!.x); // the dialogues come first, the card is the side panel
  await shot(ann, "annotate-pairwise");
  await ann.keyboard.press("g");
  await expect(ann.getByRole("region", { name: /^Guidelines/ })).toHaveCount(0);
  await ann.keyboard.press("g");
  await expect(ann.getByRole("region", { name: /^Guidelines/ })).toBeVisible();
  await ann.keyboard.press("g");

  // Keyboard scrolling: F picks a pane, J and PageDown scroll it, never the window.
  await ann.evaluate(() => {
    const body = document.querySelector<HTMLElement>('[data-scroll-pane="Dialogue 1 (first)"] [data-scroll-body]')!;
    body.style.maxHeight = "60px"; // the demo dialogues are short: make this pane scroll
  });
  await expect(ann.locator('[data-scroll-pane="Dialogue 1 (first)"]')).toHaveAttribute("data-focused", "true");
  const scrollTop = () => ann.locator('[data-scroll-pane="Dialogue 1 (first)"] [data-scroll-body]').evaluate((e) => e.scrollTop);
  await ann.keyboard.press("j");
  await expect.poll(scrollTop).toBeGreaterThan(0);
  await ann.keyboard.press("k");
  await expect.poll(scrollTop).toBe(0);
  await ann.keyboard.press("PageDown");
  await expect.poll(scrollTop).toBeGreaterThan(0);
  expect(await ann.evaluate(() => window.scrollY)).toBe(0);
  await ann.keyboard.press("f");
  await expect(ann.locator('[data-scroll-pane="Dialogue 2 (second)"]')).toHaveAttribute("data-focused", "true");

  // Label five items, skip one, comment on one.
  for (let i = 0; i < 6; i++) {
    await expect(ann.getByTestId("item-headline")).not.toHaveText("Loading…");
    if (i === 2) {
      await ann.keyboard.press("s");
      await ann.getByLabel("Skip reason").fill("dialogue cut off");
      await ann.keyboard.press("Enter");
      await expect(progress).toHaveText(/1 skipped/);
      continue;
    }
    await ann.keyboard.press("w");
    if (i === 4) {
      await ann.keyboard.press("c");
      await ann.keyboard.type("both weak");
      await ann.keyboard.press("Escape");
    }
    await ann.keyboard.press("t");
    await ann.keyboard.press("Enter");
    await expect(progress).toHaveText(new RegExp(`^${i < 2 ? i + 1 : i} / 6 done`));
  }
  const done = ann.getByTestId("completion");
  await expect(done).toBeVisible();
  await expect(ann.getByTestId("completion-counts")).toHaveText("5 labelled · 1 skipped · 1 with a comment");
  await expect(ann.getByTestId("completion-skipped")).toContainText("dialogue cut off");
  await shot(ann, "annotate-complete");
  // A skipped item is one click away and can still be labelled.
  await ann.getByTestId("completion-skipped").getByRole("button").first().click();
  await expect(ann.getByTestId("item-status")).toContainText("skipped: dialogue cut off");
  await ann.keyboard.press("l");
  await ann.keyboard.press("l");
  await ann.keyboard.press("Enter");
  await expect(ann.getByTestId("completion-counts")).toHaveText("6 labelled · 0 skipped · 1 with a comment");
  expect(errors).toEqual([]);
  await ctx.close();
});

test.describe("tie-margin calibration", () => {
  const JUDGE = "judge:e2e-screens";
  let fake: FakeOpenAI;
  test.beforeAll(async () => {
    fake = await startNamedJudge(JUDGE, "e2e-screens-judge");
  });
  test.afterAll(async () => {
    await fake.close();
  });

  test("a pairwise campaign's LLM judge run: calibration chart from the stored judgments, best margin marked, applied to an experiment", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const errors = watchConsole(page);
    // An experiment with pairwise dialogue results (mean scores 8 vs 5 on requirement, 8 vs 6 on preference), as the engine stores them.
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(e2eState().dbPath);
    const ds = db.prepare("select id from datasets where name = 'PAL-Set demo (en)'").get() as { id: number };
    const config = { methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["dialogue"], reference: "vanilla" };
    const exp = db
      .prepare(
        "insert into experiments (name, dataset_id, dataset_hash, config, config_hash, status) values (?, ?, 'h', ?, 'c', 'done') returning id",
      )
      .get(`Calibration target ${Date.now()}`, ds.id, JSON.stringify(config)) as { id: number };
    for (let i = 0; i < 3; i++) {
      const job = db
        .prepare(
          "insert into jobs (experiment_id, method, task, item_key, status, phase) values (?, 'vanilla~vanilla-log', 'dialogue', ?, 'done', 1) returning id",
        )
        .get(exp.id, `u/s/t${i}`) as { id: number };
      const values = { requirement: 1, requirementMeanA: 8, requirementMeanB: 5, preference: 1, preferenceMeanA: 8, preferenceMeanB: 6 };
      db.prepare("insert into job_scores (job_id, scorer, version, \"values\") values (?, 'faireval', 1, ?)").run(
        job.id,
        JSON.stringify(values),
      );
    }
    db.close();

    await login(page, account("researcher"));
    await page.goto(`${e2eState().baseURL}/campaigns/new`);
    await page.getByLabel("Name (researchers only)").fill(`Calibration pilot ${Date.now()}`);
    await page.getByLabel("Kind").selectOption({ label: "Pairwise dialogue judging" });
    await page.getByLabel("Items file").setInputFiles(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"));
    await page.getByRole("checkbox", { name: annotator().email }).check();
    await page.getByLabel("Annotations per item (k)").fill("1");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    const id = Number(page.url().split("/").pop());

    // The annotator agrees with the judge on requirement (the dialogue that asks "Given that you…" is better) and calls preference a tie.
    const { ctx, page: ann } = await annotatorPage(browser, annotator());
    await ann.goto(`${e2eState().baseURL}/annotate/${id}`);
    const progress = ann.getByTestId("progress");
    for (let i = 0; i < 6; i++) {
      await expect(progress).toHaveText(new RegExp(`^${i} / 6 done`));
      await expect(ann.getByTestId("item-headline")).not.toHaveText("Loading…");
      const left = await ann.getByRole("region", { name: "Dialogue 1 (first)" }).textContent();
      await ann.keyboard.press(left!.includes("Given that you") ? "w" : "l");
      await ann.keyboard.press("t");
      await ann.keyboard.press("Enter");
    }
    await expect(ann.getByTestId("completion")).toBeVisible();
    await ctx.close();

    await page.goto(`${e2eState().baseURL}/campaigns/${id}`);
    const panel = page.getByTestId("llm-judge");
    await panel.getByLabel("Judge configuration").selectOption(JUDGE);
    await panel.getByRole("button", { name: "Run judge" }).click();
    await expect(panel.getByTestId("llm-run-progress")).toHaveText(/12\/12 judged · complete/, { timeout: 60_000 });
    const calls = fake.chatRequests.length;
    await page.reload();
    const chart = page.locator("[data-testid^=calibration-chart-requirement]");
    // Every kappa is undefined here (constant ratings): the page says so instead of drawing empty axes (issue 44.8).
    await expect(chart.getByTestId("calibration-undefined-requirement")).toContainText(
      "No curve to draw: every κ is undefined at every margin",
      { timeout: 15_000 },
    );
    await expect(chart.getByRole("application")).toHaveCount(0);
    // The judge scores 8 vs 5 for side A: below 3 it says Win like the humans on requirement (one category: κ undefined, and
    // the page says so), at 3 it calls everything a tie.
    const table = page.getByTestId("calibration-table");
    // At every margin one side gives a single value throughout, so every kappa is undefined (constant ratings,
    // docs/metrics.md) and no margin is called best: a kappa of 0 from constant ratings used to pick one.
    await expect(table).not.toContainText("← best");
    await expect(table.getByRole("row").filter({ hasText: /^0\.00/ })).toContainText("6 / 0 / 0 · — / —");
    await expect(table.getByRole("row").filter({ hasText: /^3\.00/ })).toContainText("0 / 6 / 0");
    expect(fake.chatRequests.length).toBe(calls); // calibration makes no call
    await page.getByRole("heading", { name: /^Tie-margin calibration/ }).scrollIntoViewIfNeeded();
    await shot(page, "calibration");

    // Apply margin 3 to the experiment: its W/T/L is re-derived (every pair within 3 points is a tie).
    const apply = page.getByTestId("apply-margin");
    // A tampered margin is refused with its reason beside the button (a 400 in the action's result), not a 500.
    await apply.getByLabel("Margin to apply").evaluate((el: HTMLSelectElement) => {
      el.options[0].value = "abc";
      el.selectedIndex = 0;
    });
    await apply.getByRole("button", { name: "Apply margin" }).click();
    await expect(apply.getByRole("alert")).toContainText("margin: expected a number from 0 to 10");
    await apply.getByLabel("Margin to apply").selectOption("3");
    await apply.getByLabel("Experiment").selectOption(String(exp.id));
    await apply.getByRole("button", { name: "Apply margin" }).click();
    await expect(page.getByTestId("applied-margins")).toContainText(`#${exp.id} reads W/T/L at margin 3`);
    await page.goto(`${e2eState().baseURL}/experiments/${exp.id}`);
    await page.getByRole("tab", { name: "All metrics" }).click(); // the results open on the paper table
    await expect(page.getByTestId("applied-tie-margin")).toContainText("tie margin 3");
    await expect(page.getByTestId("results-pairwise")).toContainText("0 / 3 / 0");
    await shot(page, "experiment-applied-margin");

    // /agreement shows the judge-vs-human figures, with the reason where a kappa is undefined.
    await page.goto(`${e2eState().baseURL}/agreement`);
    await expect(page.getByTestId(`agreement-judges-${id}-requirement`)).toContainText("LLM dialogue-pair");
    await expect(page.getByTestId(`agreement-judges-${id}-preference`)).toContainText("(");
    await shot(page, "agreement");
    expect(errors).toEqual([]);
  });
});

test("memory page: the build form keeps its choice after Build, and an error speaks the page's language", async ({ page }) => {
  const errors = watchConsole(page);
  await login(page, account("researcher"));
  await page.goto(`${e2eState().baseURL}/memory`);
  const form = page.getByRole("form", { name: "Build memory" });
  await form.getByLabel("Data set").selectOption({ label: "PAL-Set demo (en)" });
  const methods = await form.getByLabel("Method").locator("option").allTextContents();
  const other = methods.find((m) => !m.includes("(h2memory)"))!;
  await form.getByLabel("Method").selectOption({ label: other });
  await form.getByLabel("Users (blank: every user)").fill("9999");
  await form.getByRole("button", { name: "Build memory" }).click();
  await expect(form.getByRole("alert")).toHaveText('data set "PAL-Set demo (en)" has no user "9999"');
  await expect(form.getByLabel("Method").locator("option:checked")).toHaveText(other);
  await expect(form.getByLabel("Users (blank: every user)")).toHaveValue("9999");
  await expect(form.getByLabel("Data set").locator("option:checked")).toHaveText("PAL-Set demo (en)");
  expect(errors).toEqual([]);
});
