import fs from "node:fs";
import path from "node:path";
import { test, expect, type Page } from "./fixtures";
import { e2eState, login, account } from "./state";
import { chooseUsers } from "./experiment-form";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { experimentReplies } from "../test/experiment-replies";

/**
 * A researcher reviews case studies the way Mem-PAL's Figure 4 shows them: a dialogue item rendered turn
 * by turn with the memory each reply used (no JSON on the page until the raw toggle), three methods side
 * by side on one topic with their pairwise verdicts, a highlighted passage, a star with a note, and the
 * HTML figure export. The assistant is the global setup's fake model (TEST DOUBLE); the user simulator and
 * the judges are this spec's fake server. Every page visited must log no console error.
 * Set CASES_SHOTS=<dir> to also save 1440x900 screenshots of each screen.
 */
let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ latencyMs: 5 });
  fake.setResponder(experimentReplies());
});
test.afterAll(async () => {
  await fake.close();
});

const SHOTS = process.env.CASES_SHOTS;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `cases-${name}.png`) });
}

/** Console errors and uncaught exceptions of a page (a hydration mismatch is both). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${page.url()}: console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: pageerror: ${e.message}`));
  // "Failed to load resource" names no URL: record which one.
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${page.url()}: HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return errors;
}

/** JSON printed as text: a brace or bracket opening a string, object or list, or a quoted key followed by a JSON value. */
const JSON_TEXT = /[{[]\s*["{[]|"[^"\n]{1,60}"\s*:\s*["{[\d]/;

test("a researcher opens a dialogue item, compares three methods, highlights, stars with a note and exports the figure", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const base = e2eState().baseURL;
  const admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const adminErrors = watchErrors(admin);
  await login(admin, account("admin"));
  await admin.goto(`${base}/admin/models`);
  // The simulator and the judge role point at this spec's fake; the dialogue judge by its own name, so that
  // another spec re-pointing the judge role cannot take this experiment's judgments.
  for (const role of ["user-simulator", "judge"]) {
    const card = admin.getByTestId(`model-${role}`);
    const form = card.getByRole("form", { name: `Settings of ${role}` });
    await form.getByLabel(/Base URL/).fill(fake.baseURL);
    await form.getByLabel("Model").fill(`e2e-${role}`);
    await form.getByLabel(/API key/).fill("sk-e2e");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(`Saved ${role}.`)).toBeVisible();
  }
  const addJudge = admin.getByRole("form", { name: "Add a named judge" });
  const judgeName = addJudge.getByLabel("Judge name");
  // The name's pattern is a valid regular expression under Chromium's v flag: it rejects what the server rejects.
  await judgeName.fill("judge:Bad name");
  expect(await judgeName.evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);
  await judgeName.fill("judge:dialogue");
  expect(await judgeName.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(true);
  await addJudge.getByLabel("Model").fill("e2e-dialogue-judge");
  await addJudge.getByLabel(/Base URL/).fill(fake.baseURL);
  await addJudge.getByRole("button", { name: "Add judge" }).click();
  await expect(admin.getByTestId("model-judge:dialogue")).toBeVisible();
  expect(adminErrors).toEqual([]);

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  const errors = watchErrors(page);
  await login(page, account("researcher"));
  await page.goto(`${base}/experiments`);
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByTestId("dataset").selectOption({ label: "PAL-Set demo (en)" });
  await form.getByTestId("preset").selectOption({ label: "Custom (choose methods and tasks)" });
  for (const m of ["Vanilla + logs", "Turn-level RAG"]) await form.getByLabel(m, { exact: true }).check();
  await form.getByLabel("Requirement restatement (Task 1)").check();
  await form.getByLabel("Multi-turn dialogue (Task 3, pairwise FairEval)").check();
  await chooseUsers(form, ["0000"]);
  await form.getByRole("button", { name: "Estimate" }).click();
  await expect(form.getByTestId("estimate")).toContainText("total");
  await form.getByRole("button", { name: "Launch" }).click();
  await page.waitForURL(/\/experiments\/\d+$/);
  const experimentUrl = page.url();
  await expect(page.getByTestId("status")).toHaveText("done", { timeout: 150_000 });
  await expect(page.getByTestId("counts")).toContainText("0 failed");
  await page.reload();

  // The Items table filters by task and method and sorts by score.
  const items = page.getByTestId("job-list");
  await page.getByLabel("Filter by task").selectOption("dialogue");
  await page.getByLabel("Filter by method").selectOption("vanilla-log");
  await expect(page.getByTestId("item-count")).toHaveText(/^3 of \d+ items/);
  await page.getByTestId("item-filters").evaluate((el) => el.scrollIntoView({ block: "start" }));
  await shot(page, "items-table");
  // Items read as their topics (the key as small text), and the text box finds one by a word of its topic.
  await expect(items.getByTestId("item-title").first()).toHaveText(/ \(user 0000\)$/);
  await page.getByLabel("Filter by item").fill("roster");
  await expect(page.getByTestId("item-count")).toHaveText(/^[1-3] of \d+ items$/);
  await expect(items.getByTestId("item-title").first()).toHaveText(/summer roster preferences.* \(user 0000\)$/);
  await shot(page, "items-text-filter");
  await page.getByLabel("Filter by item").fill("");
  await page.getByLabel("Filter by method").selectOption("");
  await page.getByLabel("Filter by task").selectOption("requirement");
  await items.getByRole("button", { name: "Score" }).click();
  await expect(items.locator("tbody tr").first()).toContainText("G-Score");

  // A single-turn answer: the reference beside it and the metric values.
  await page.getByLabel("Filter by method").selectOption("vanilla-log");
  await items.locator("tbody tr").first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/ \(user 0000\)$/);
  await expect(page.getByTestId("item-key")).toHaveText(/^0000\/0000_sample\d+\/topic-\d+$/);
  await expect(page.getByTestId("reference")).toContainText("Requirement (reference)");
  await expect(page.getByTestId("scores")).toContainText("G-Score");
  await shot(page, "item-answer");

  // A dialogue item: turns, the memory retrieved for each reply (collapsed), the call behind it.
  await page.goto(experimentUrl);
  await page.getByLabel("Filter by task").selectOption("dialogue");
  await page.getByLabel("Filter by method").selectOption("vanilla-log");
  await items.locator("tbody tr").first().getByRole("link").click();
  await expect(page.getByTestId("turns")).toBeVisible();
  const replies = page.getByTestId("turn-assistant");
  expect(await replies.count()).toBeGreaterThanOrEqual(5);
  expect(await page.getByTestId("turn-user").count()).toBe(await replies.count());
  const memory = replies.first().getByTestId("turn-memory");
  await expect(memory).not.toHaveAttribute("open", "");
  await memory.locator("summary").click();
  await expect(memory).toHaveAttribute("open", "");
  await expect(memory.locator("li").first()).toBeVisible(); // vanilla-log retrieves the session's logs
  await expect(replies.first().getByTestId("turn-call")).toHaveAttribute("href", /\/memory\/calls\?key=[0-9a-f]+/);
  await expect(page.getByTestId("item-info")).toContainText("Profile");
  await expect(page.getByTestId("item-input")).toContainText("Turn 1: user Topic Inquiry");
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(JSON_TEXT);
  await shot(page, "item-dialogue");
  await page.getByRole("button", { name: "Show raw JSON" }).click();
  await expect(page.getByTestId("raw-json")).toContainText('"dialogue"');
  await page.getByRole("button", { name: "Hide raw JSON" }).click();

  // Three methods side by side on this topic, the pairwise verdicts under them.
  await page.getByRole("link", { name: "Compare methods on this topic" }).click();
  const columns = page.getByTestId("compare-columns").getByTestId("method-output");
  await expect(columns).toHaveCount(3);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Compare: .+ \(user 0000\)$/);
  await expect(page.getByTestId("verdict")).toHaveCount(2);
  await expect(page.getByTestId("verdict").first()).toContainText(/Vanilla vs (Vanilla \+ logs|Turn-level RAG)/);
  await expect(page.getByTestId("verdict").first()).not.toContainText(/Tie for/); // a tie is neither method's
  expect(await page.locator("body").innerText()).not.toMatch(JSON_TEXT);

  // Highlight a passage of vanilla-log's second reply, with a note.
  // Columns are headed by display names ("Vanilla + logs"); the method's key is its data-method.
  await expect(page.locator('[data-testid="method-output"][data-method="vanilla-log"] h2')).toContainText("Vanilla + logs");
  const target = page
    .locator('[data-testid="compare-columns"] [data-testid="method-output"][data-method="vanilla-log"]')
    .getByTestId("turn-assistant")
    .nth(1)
    .locator("[data-block]")
    .first();
  const passage = await target.evaluate((el) => {
    const node = el.firstChild!;
    const text = node.textContent ?? "";
    const range = document.createRange();
    range.setStart(node, 0);
    range.setEnd(node, Math.min(12, text.length));
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    el.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    return range.toString();
  });
  const bar = page.getByTestId("mark-bar");
  await bar.getByLabel("Note (optional)").fill("uses her night shifts");
  await bar.getByRole("button", { name: "Matches background / need" }).click();
  await expect(bar).toHaveCount(0);
  await expect(target.locator("mark")).toHaveText(passage);
  await expect(page.getByTestId("marks-panel")).toContainText("uses her night shifts");
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "compare");
  await target.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await shot(page, "compare-marked");
  // Stored: a reload shows it again, for everyone.
  await page.reload();
  await expect(page.getByTestId("marks-panel")).toContainText(passage);

  // A highlight on the profile too (issue 34.1: Figure 4 dropped those).
  const profileField = page.getByTestId("item-info").locator('[data-block^="info:Profile:"]').first();
  await page.evaluate(() => window.scrollTo(0, 0));
  const profilePassage = await profileField.evaluate((el) => {
    const node = el.firstChild!;
    const range = document.createRange();
    range.setStart(node, 0);
    range.setEnd(node, Math.min(4, (node.textContent ?? "").length));
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    el.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    return range.toString();
  });
  await bar.getByLabel("Note (optional)").fill("her profile fits");
  // The bar sits by the selection, near the top of the page: pressed where it is.
  await bar.getByRole("button", { name: "Fits preference" }).dispatchEvent("click");
  await expect(profileField.locator("mark")).toHaveText(profilePassage);

  // Star the topic with a note and tags.
  await page.getByRole("button", { name: "☆ Star as case study" }).click();
  const star = page.getByRole("form", { name: "Case study star" });
  await star.getByLabel("Note").fill("Figure 4 candidate: memory brings up her schedule.");
  await star.getByLabel(/Tags/).fill("figure, schedule");
  await star.getByRole("button", { name: "Star" }).click();
  await expect(page.getByTestId("star-note")).toContainText("Figure 4 candidate");

  // A pairwise judgment's page: both dialogues, then each dimension's six judgments with the analyses.
  await page.getByTestId("verdict").first().getByRole("link", { name: "judgment" }).click();
  await expect(page.getByTestId("dialogues").getByTestId("method-output")).toHaveCount(2);
  const dimension = page.getByTestId("verdict").locator("details").first();
  await dimension.locator("summary").click();
  await expect(dimension.locator("li")).toHaveCount(6);
  expect(await page.locator("body").innerText()).not.toMatch(JSON_TEXT);
  await dimension.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await shot(page, "judgment");

  // The case studies page lists it, filters by tag, and exports the HTML figure.
  await page.goto(`${experimentUrl}/case-studies`);
  const study = page.getByTestId("case-study");
  await expect(study).toHaveCount(1);
  await expect(study).toContainText("Figure 4 candidate");
  // Titled by the user's query, not the item key (the key beside it).
  await expect(study.locator("h2")).not.toContainText("0000/");
  await expect(study.locator("mark")).toHaveText([profilePassage, passage]);
  await page.getByRole("form", { name: "Filter case studies" }).getByLabel("Tag").selectOption("schedule");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(study).toHaveCount(1);
  await page.getByRole("form", { name: "Filter case studies" }).getByLabel("Text").fill("no such words");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(study).toHaveCount(0);
  await page.goto(`${experimentUrl}/case-studies`);
  await shot(page, "case-studies");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export HTML figure" }).click()]);
  const html = fs.readFileSync((await download.path())!, "utf8");
  expect(download.suggestedFilename()).toMatch(/case-studies\.html$/);
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).toContain("Figure 4 candidate: memory brings up her schedule.");
  expect(html).toContain(`<mark class="need"`);
  // Methods under their display names, each case titled by the user's query (issue 34.3).
  for (const m of ["Vanilla", "Vanilla + logs", "Turn-level RAG"]) expect(html).toContain(`<h3>${m}</h3>`);
  expect(html).not.toMatch(/>(vanilla-log|turn-rag)</);
  expect(html).not.toMatch(/<h2>Case 1: dialogue · /);
  // Self-contained: no script, no outside stylesheet, image or font.
  expect(html).not.toMatch(/<script|<link|src=|url\(/i);
  const md = await page.request.get(`${experimentUrl.replace("/experiments/", "/api/experiments/")}/export?format=md`);
  expect(await md.text()).toContain("Figure 4 candidate");

  const figure = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const figureErrors = watchErrors(figure);
  await figure.setContent(html);
  await expect(figure.locator("figure")).toHaveCount(1);
  await shot(figure, "html-figure");
  expect(figureErrors).toEqual([]);

  // Figure 4 for a paper (issue 25, item 3): choose turns and fields; the preview is the SVG export, which
  // parses as SVG and shows the reply with its memory; SVG and HTML download with the same options.
  await page.getByTestId("case-study").getByRole("link", { name: "Figure 4…" }).click();
  await page.waitForURL(/\/figure\?/);
  const options = page.getByRole("form", { name: "Figure options" });
  const svgOf = async () => {
    const src = await page.getByTestId("figure-preview").getAttribute("src");
    const text = await (await page.request.get(new URL(src!, page.url()).toString())).text();
    return page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, "image/svg+xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        root: doc.documentElement.nodeName,
        text: doc.documentElement.textContent ?? "",
        fills: [...doc.querySelectorAll("rect")].map((r) => r.getAttribute("fill")),
        height: Number(doc.documentElement.getAttribute("height")),
      };
    }, text);
  };
  // By default (issue 34.1): the highlighted turns among three, the starred method and the reference,
  // the profile's and the reply's highlights drawn, the star note as the caption.
  await expect(options.getByRole("checkbox", { name: "1", exact: true })).toBeChecked();
  await expect(options.getByRole("checkbox", { name: "2", exact: true })).toBeChecked();
  await expect(options.getByRole("checkbox", { name: "3", exact: true })).toBeChecked();
  await expect(options.getByRole("checkbox", { name: "4", exact: true })).not.toBeChecked();
  await expect(options.getByRole("checkbox", { name: "Caption (the star note)" })).toBeChecked();
  const byDefault = await svgOf();
  expect(byDefault.error).toBeNull();
  expect(byDefault.root).toBe("svg");
  expect(byDefault.text.replace(/\s+/g, " ")).toContain("Figure 4 candidate: memory brings up her schedule.");
  expect(byDefault.text).toContain("her profile fits");
  expect(byDefault.fills).toContain("#bfdbfe"); // the profile's highlight (preference)
  expect(byDefault.fills).toContain("#fde68a"); // the reply's highlight (need)
  expect(byDefault.text).toContain("TURN 3");
  expect(byDefault.text).not.toContain("TURN 4");
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, "figure4-default");
  // "All turns": the preview scrolls inside its box, the page stays the window's height.
  await options.getByRole("checkbox", { name: "all", exact: true }).check();
  await options.getByRole("button", { name: "Update figure" }).click();
  await page.waitForURL(/turns=[^&]*all/);
  const all = await svgOf();
  expect(all.height).toBeGreaterThan(1500);
  await expect
    .poll(() => page.getByTestId("figure-preview").evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight))
    .toBe(all.height);
  const box = await page.getByTestId("figure-preview-box").boundingBox();
  expect(box!.height).toBeLessThanOrEqual(900);
  await shot(page, "figure4-all-turns");
  // "PDF (print)" prints on one A4 page, however tall.
  const printHref = await page.getByRole("link", { name: "PDF (print)" }).getAttribute("href");
  const printPage = await (await browser.newContext()).newPage();
  const printed = await page.request.get(new URL(printHref!, page.url()).toString());
  await printPage.setContent(await printed.text());
  const pdf = await printPage.pdf({ format: "A4", preferCSSPageSize: true });
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  await printPage.setViewportSize({ width: 1440, height: 900 });
  await shot(printPage, "figure4-print");
  await options.getByRole("checkbox", { name: "all", exact: true }).uncheck();
  for (const n of ["3", "4", "5", "6", "7", "8", "9", "10"]) {
    const c = options.getByRole("checkbox", { name: n, exact: true });
    if (await c.count()) await c.uncheck();
  }
  await options.getByRole("checkbox", { name: "1", exact: true }).check();
  await options.getByRole("checkbox", { name: "2", exact: true }).check();
  await options.getByRole("checkbox", { name: "Scores" }).check();
  await options.getByRole("radio", { name: "one column" }).check();
  await options.getByRole("button", { name: "Update figure" }).click();
  await page.waitForURL(/turns=1%2C2|turns=1,2|turns=1&turns=2/);
  const preview = page.getByTestId("figure-preview");
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  const svgUrl = await preview.getAttribute("src");
  const svgText = await (await page.request.get(new URL(svgUrl!, page.url()).toString())).text();
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    return {
      error: doc.querySelector("parsererror")?.textContent ?? null,
      root: doc.documentElement.nodeName,
      text: doc.documentElement.textContent,
    };
  }, svgText);
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe("svg");
  expect(parsed.text).toContain("TURN 2");
  expect(parsed.text).not.toContain("TURN 3");
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, "figure4-page");
  const [svgDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SVG" }).click()]);
  expect(svgDownload.suggestedFilename()).toMatch(/figure-.*\.svg$/);

  expect(errors).toEqual([]);
});
