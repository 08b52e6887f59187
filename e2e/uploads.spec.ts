import { test, expect, type Page, allowConsoleErrors, requestStatus } from "./fixtures";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { e2eState, login, account } from "./state";
import { annotatorPage } from "./annotate";

/**
 * Campaign and judge-verdict uploads above the 10 MB the proxy would buffer, through the pages in
 * Chromium: a 50 MB items file creates a campaign, a 20 MB verdicts file imports a judge run. The files
 * are generated here into a temp folder (never committed). Invalid UTF-8 is refused with file and line.
 */
test.describe.configure({ mode: "serial" });
const url = (p: string) => `${e2eState().baseURL}${p}`;
const MB = 1024 * 1024;
const ITEMS = 500;

let dir: string;
test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-uploads-"));
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes `lines` JSONL lines of about `bytes / lines` bytes each; returns the file's size. */
function writeJsonl(file: string, lines: number, bytes: number, line: (i: number, pad: string) => object): number {
  const fd = fs.openSync(file, "w");
  const unit = "Lorem ipsum dolor sit amet, 说明 ";
  const pad = unit.repeat(Math.ceil(bytes / lines / Buffer.byteLength(unit)));
  for (let i = 0; i < lines; i++) fs.writeSync(fd, `${JSON.stringify(line(i, pad))}\n`);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

async function fillCampaign(page: Page, name: string, file: string) {
  await page.goto(url("/campaigns/new"));
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Kind").selectOption("output-rating");
  await page.getByLabel("Items file").setInputFiles(file);
  const annotator = e2eState().accounts.find((a) => a.role === "annotator")!;
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("checkbox", { name: annotator.email }).check();
  await page.getByLabel("Annotations per item (k)").fill("1");
  await page.getByRole("button", { name: "Create campaign" }).click();
}

test("a 50 MB campaign file creates the campaign, then a 20 MB verdicts file imports, through the pages", async ({ page }) => {
  test.setTimeout(300_000);
  const items = path.join(dir, "big-items.jsonl");
  const size = writeJsonl(items, ITEMS, 51 * MB, (i, pad) => ({ id: `big-${i}`, output: `${i}: ${pad}` }));
  expect(size).toBeGreaterThan(50 * MB);
  await login(page, account("researcher"));
  await fillCampaign(page, `E2E 50 MB campaign ${Date.now()}`, items);
  await page.waitForURL(/\/campaigns\/\d+$/, { timeout: 240_000 });
  const id = Number(page.url().split("/").pop());
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  const count = (sql: string) => (db.prepare(sql).get(id) as { n: number }).n;
  expect(count("select count(*) n from campaign_items where campaign_id = ?")).toBe(ITEMS);

  const verdicts = path.join(dir, "big-verdicts.jsonl");
  const vsize = writeJsonl(verdicts, ITEMS, 21 * MB, (i, pad) => ({ item: `big-${i}`, dimension: "quality", verdict: "2", analysis: pad }));
  expect(vsize).toBeGreaterThan(20 * MB);
  const form = page.getByRole("form", { name: "Import judge verdicts" });
  await form.getByLabel("Judge name").fill("big-judge");
  await form.getByLabel("Verdicts file").setInputFiles(verdicts);
  await form.getByRole("button", { name: "Import verdicts" }).click();
  await expect(form.getByRole("status")).toHaveText(`Imported ${ITEMS} verdicts.`, { timeout: 120_000 });
  expect(
    count("select count(*) n from judge_labels l join judge_runs r on r.id = l.run_id where r.campaign_id = ? and r.name = 'big-judge'"),
  ).toBe(ITEMS);
  db.close();
});

test("invalid UTF-8 in an upload is refused with the file and line, and nothing is stored", async ({ page }) => {
  allowConsoleErrors(requestStatus(400, "/api/campaigns")); // the refused upload, on purpose
  const file = path.join(dir, "latin1.jsonl");
  fs.writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('{"id": "ok-1", "output": "fine"}\n{"id": "bad-2", "output": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n'),
    ]),
  );
  await login(page, account("researcher"));
  const name = `E2E latin-1 ${Date.now()}`;
  await fillCampaign(page, name, file);
  await expect(page.getByRole("form", { name: "New campaign" }).getByRole("alert")).toContainText("latin1.jsonl:2: not valid UTF-8");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("uploads-utf8-refused.png") }).catch(() => {});
  expect(page.url()).toMatch(/\/campaigns\/new$/);
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  expect(db.prepare("select count(*) n from campaigns where name = ?").get(name)).toEqual({ n: 0 });
  db.close();
});

test("an item nested too deeply (stored before the bound) does not trap the annotator: it is shown as such and skipped", async ({
  page,
  browser,
}) => {
  const file = path.join(dir, "three.jsonl");
  fs.writeFileSync(file, [1, 2, 3].map((i) => JSON.stringify({ id: `deep-${i}`, output: `output ${i}` })).join("\n") + "\n");
  await login(page, account("researcher"));
  await fillCampaign(page, `E2E deep item ${Date.now()}`, file);
  await page.waitForURL(/\/campaigns\/\d+$/);
  const id = Number(page.url().split("/").pop());
  // As an item stored before nesting was bounded: 1,500 levels, written straight into the database.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  db.prepare("update campaign_items set content = ? where campaign_id = ? and position = 0").run(
    `{"output": ${"[".repeat(1500)}"x"${"]".repeat(1500)}}`,
    id,
  );
  db.close();

  const annotator = e2eState().accounts.find((a) => a.role === "annotator")!;
  const { ctx, page: ann } = await annotatorPage(browser, annotator);
  await ann.setViewportSize({ width: 1440, height: 900 });
  await ann.goto(url(`/annotate/${id}`));
  await expect(ann.getByTestId("item-unrenderable")).toContainText("nested deeper than 64 levels");
  await expect(ann.getByRole("group", { name: "Your judgment" })).toHaveCount(0); // nothing to judge on an item not shown
  await ann.screenshot({ path: test.info().outputPath("uploads-unrenderable-item.png") }).catch(() => {});
  await ann.keyboard.press("s");
  await ann.getByLabel("Skip reason").fill("cannot be shown");
  await ann.keyboard.press("Enter");
  await expect(ann.getByTestId("progress")).toHaveText(/0 \/ 3 done · 1 skipped/);
  await expect(ann.getByTestId("item-headline")).not.toHaveText(/Loading|cannot be shown/);
  // A reload resumes on the next open item, not on the one that cannot be shown.
  await ann.reload();
  await expect(ann.getByTestId("item-unrenderable")).toHaveCount(0);
  await expect(ann.getByTestId("item-headline")).not.toHaveText("Loading…");
  await ctx.close();
});
