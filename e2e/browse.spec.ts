import { test, expect, type Page, allowConsoleErrors, pageStatus } from "./fixtures";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { e2eState, login, account } from "./state";
import { apiAs } from "./api-client";
import { FIXTURE_HF, PALSET_EN } from "../test/fixtures";

const url = (p: string) => `${e2eState().baseURL}${p}`;

/** Ids and keys straight from the e2e database (read-only), to build deep links. */
function ids() {
  const db = new Database(e2eState().dbPath, { readonly: true, fileMustExist: true });
  try {
    const ds = (name: string) => (db.prepare("select id from datasets where name = ?").get(name) as { id: number }).id;
    const palSample = (datasetId: number, split: "history" | "query") =>
      db
        .prepare(
          `select u.user_key as userKey, s.sample_key as sampleKey from pal_samples s join pal_users u on u.id = s.user_id
           where s.dataset_id = ? and s.split = ? and s.topic_count >= 1 order by u.position, s.seq limit 1`,
        )
        .get(datasetId, split) as { userKey: string; sampleKey: string };
    const en = ds("PAL-Set demo (en)");
    const zh = ds("PAL-Set demo (zh)");
    const hc = ds("HiCUPID demo");
    const hcUser = (
      db.prepare("select user_key as userKey from hc_users where dataset_id = ? order by position limit 1").get(hc) as { userKey: string }
    ).userKey;
    const names = (db.prepare("select name from datasets").all() as { name: string }[]).map((r) => r.name);
    return { en, zh, hc, enQuery: palSample(en, "query"), zhQuery: palSample(zh, "query"), hcUser, names };
  } finally {
    db.close();
  }
}

async function openDataset(page: Page, name: string) {
  await page.goto(url("/datasets"));
  await page.getByTestId("dataset-list").getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.describe("researcher browses PAL-Set", () => {
  test("en: datasets → users table (sort, filter) → user → session → topic deep link", async ({ page }) => {
    await login(page, account("researcher"));
    await expect(page).toHaveURL(/\/datasets$/);
    await openDataset(page, "PAL-Set demo (en)");

    const table = page.getByTestId("users-table");
    await expect(table.getByRole("row")).not.toHaveCount(1);
    await expect(page.getByTestId("quality-report")).toBeVisible();
    await expect(page.getByTestId("dataset-counts")).toContainText("Logs");

    // Sort by logs (server-side, through the URL): numbers sort largest first, a second click flips.
    const logs = async () =>
      await table
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => Number((r.children[3] as HTMLElement).innerText.replace(/,/g, ""))));
    await table.getByRole("button", { name: /Logs/ }).click();
    await expect(page).toHaveURL(/sort=logs/);
    await expect(page).toHaveURL(/dir=desc/);
    await expect(table.locator("th[aria-sort=descending]")).toContainText("Logs");
    const desc = await logs();
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await table.getByRole("button", { name: /Logs/ }).click();
    await expect(page).toHaveURL(/dir=asc/);
    await expect(table.locator("th[aria-sort=ascending]")).toContainText("Logs");
    const asc = await logs();
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    // Keyboard: the header is a button, Enter sorts.
    await table.getByRole("button", { name: /Sessions/ }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=sessions/);

    // Filter (server-side, through the URL) to one user.
    const firstKey = (await table.locator("tbody tr").first().getAttribute("data-row-id"))!;
    await page.getByLabel("Find user").fill(firstKey);
    await expect(page).toHaveURL(new RegExp(`q=${firstKey}`));
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await page.getByLabel("Find user").fill("no-such-user-zzz");
    await expect(table).toContainText("Nothing matches");
    await page.getByLabel("Find user").fill("");
    await expect(table.locator("tbody tr").first()).toBeVisible();

    // A user: profile and the timeline (history vs query).
    const { enQuery } = ids();
    await page.getByLabel("Find user").fill(enQuery.userKey);
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await table.locator("tbody tr").first().getByRole("link").click();
    await expect(page.getByTestId("profile")).toBeVisible();
    await expect(page.getByTestId("timeline")).toBeVisible();
    await expect(page.getByTestId("timeline").locator("[data-split=query]").first()).toContainText("query");
    await expect(page.getByTestId("timeline").locator("[data-split=history]").first()).toContainText("history");

    // A session: logs, chat with action badges, topics with 8 candidates and pos/neg labels.
    await page
      .getByTestId("timeline")
      .getByRole("link", { name: new RegExp(enQuery.sampleKey) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${enQuery.sampleKey}$`));
    await expect(page.getByTestId("log").first()).toBeVisible();
    await expect(page.getByTestId("chat").getByTestId("action-badge").first()).toBeVisible();
    await expect(page.getByTestId("chat").locator("[data-action=topic_inquiry]").first()).toContainText("Topic Inquiry");
    const topic = page.getByTestId("topic").first();
    await expect(topic.getByTestId("candidate")).toHaveCount(8);
    await expect(topic.getByTestId("feedback").filter({ hasText: "Positive" }).first()).toBeVisible();
    await expect(topic.getByTestId("feedback").filter({ hasText: "Negative" }).first()).toBeVisible();
    await expect(topic.getByTestId("solutions-pos")).toBeVisible();

    // Log filters work on the client.
    const total = await page.getByTestId("log").count();
    await page.getByLabel("Search logs").fill("zzzz-not-in-any-log");
    await expect(page.getByTestId("log")).toHaveCount(0);
    await page.getByLabel("Search logs").fill("");
    await expect(page.getByTestId("log")).toHaveCount(total);

    // The topic's own link lands on that topic, highlighted; a #topic-n anchor does too.
    const last = page.getByTestId("topic").last();
    const lastKey = (await last.getAttribute("data-topic"))!;
    await last.getByRole("link", { name: "Link to this topic" }).click();
    await expect(page).toHaveURL(new RegExp(`/topics/${lastKey}$`));
    const target = page.locator(`[data-testid=topic][data-topic="${lastKey}"]`);
    await expect(target).toHaveAttribute("data-highlighted", "true");
    await expect(target).toBeInViewport();

    await page.goto(url(`${new URL(page.url()).pathname.replace(/\/topics\/.*$/, "")}#${lastKey}`));
    await expect(page.locator(`#${lastKey}`)).toBeInViewport();
  });

  test("zh: the Chinese set shows Chinese text and action labels", async ({ page }) => {
    await login(page, account("researcher"));
    const { zh, zhQuery } = ids();
    await openDataset(page, "PAL-Set demo (zh)");
    await page.getByTestId("users-table").getByRole("link", { name: zhQuery.userKey }).click();
    await expect(page.getByTestId("profile")).toBeVisible();
    await page
      .getByTestId("timeline")
      .getByRole("link", { name: new RegExp(zhQuery.sampleKey) })
      .click();
    await expect(page.getByTestId("chat").getByTestId("bubble-user").first()).toContainText(/[\u4e00-\u9fff]/);
    await expect(page.getByTestId("chat").locator("[data-action=topic_inquiry]").first()).toContainText("话题询问");
    await expect(page.getByTestId("log").first()).toContainText(/[\u4e00-\u9fff]/);
    await expect(page.getByTestId("topic").first().getByTestId("candidate")).toHaveCount(8);
    // Deep link straight to a topic route.
    await page.goto(url(`/datasets/${zh}/users/${zhQuery.userKey}/sessions/${zhQuery.sampleKey}/topics/topic-1`));
    await expect(page.locator("[data-testid=topic][data-topic=topic-1]")).toHaveAttribute("data-highlighted", "true");
  });

  test("unknown ids answer 404", async ({ page }) => {
    allowConsoleErrors(pageStatus(404)); // the unknown ids, on purpose
    await login(page, account("researcher"));
    const { en, enQuery } = ids();
    for (const p of [
      "/datasets/999999",
      "/datasets/abc",
      `/datasets/${en}/users/no-such-user`,
      `/datasets/${en}/users/${enQuery.userKey}/sessions/no-such-sample`,
      `/datasets/${en}/users/${enQuery.userKey}/sessions/${enQuery.sampleKey}/topics/topic-99`,
      `/datasets/${en}/qa`,
    ]) {
      const res = await page.goto(url(p));
      expect(res?.status(), p).toBe(404);
    }
  });
});

test("researcher browses HiCUPID: users, a user's dialogues by type, QA filtered by type", async ({ page }) => {
  await login(page, account("researcher"));
  const { hc, hcUser } = ids();
  await openDataset(page, "HiCUPID demo");
  const table = page.getByTestId("users-table");
  await expect(table.getByRole("columnheader", { name: /Persona/ })).toBeVisible();
  await table.getByRole("link", { name: hcUser, exact: true }).click();
  await expect(page.locator("[data-testid=hc-dialogue-group][data-type=persona]")).toBeVisible();
  await expect(page.locator("[data-testid=hc-dialogue-group][data-type=schedule]")).toBeVisible();
  const d = page.getByTestId("hc-dialogue").first();
  await d.locator("summary").click();
  await expect(d.getByTestId("bubble-user").first()).toBeVisible();

  await page.goto(url(`/datasets/${hc}`));
  await page.getByRole("link", { name: "Browse QA" }).click();
  await expect(page.getByTestId("qa-item").first()).toBeVisible();
  await page.getByLabel("Filter by type").selectOption("schedule");
  await expect(page).toHaveURL(/type=schedule/);
  const items = page.getByTestId("qa-item");
  await expect(items.first()).toHaveAttribute("data-type", "schedule");
  expect(await items.evaluateAll((xs) => xs.every((x) => x.getAttribute("data-type") === "schedule"))).toBe(true);
  await expect(items.first()).toContainText("Personalized answer");
  await expect(items.first()).toContainText("General answer");
  // A relevant dialogue link opens that dialogue on the user page.
  const link = items.first().getByTestId("qa-dialogue-link").first();
  const href = (await link.getAttribute("href"))!;
  await link.click();
  const anchor = href.split("#")[1];
  await expect(page.locator(`details#${anchor}`)).toHaveAttribute("open", "");
});

test.describe("import page", () => {
  function tempUpload(files: Record<string, string>): string[] {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-upload-"));
    return Object.entries(files).map(([name, text]) => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, text);
      return f;
    });
  }
  const fixtureUser = () => fs.readFileSync(path.join(PALSET_EN, "users", "0000.json"), "utf8");

  test("a small PAL-Set imports with progress and its result", async ({ page }) => {
    await login(page, account("researcher"));
    const name = `E2E upload ${Date.now()}`;
    await page.goto(url("/datasets"));
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await expect(page).toHaveURL(/\/datasets\/import$/);
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Language").selectOption("en");
    await page.getByTestId("import-files").setInputFiles(tempUpload({ "0000.json": fixtureUser() }));
    await expect(page.getByTestId("picked-files")).toContainText("0000.json");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-progress")).toBeVisible();
    const result = page.getByTestId("import-result");
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("import-progress")).toHaveAttribute("data-phase", "done");
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    await expect(result).toContainText(name);
    await expect(result).toContainText("users");
    await result.getByRole("link", { name: "Open the data set" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("users-table").locator("tbody tr")).toHaveCount(1);

    // The published JSON comes back from the export API, user for user.
    const api = await apiAs(account("researcher"));
    const id = new URL(page.url()).pathname.split("/").pop();
    const res = await api.get(`/api/datasets/${id}/export`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toContain("attachment");
    expect(await res.json()).toEqual(JSON.parse(fixtureUser()));
  });

  test("a malformed file shows the one-line error and creates nothing", async ({ page }) => {
    await login(page, account("researcher"));
    const name = `E2E malformed ${Date.now()}`;
    const data = JSON.parse(fixtureUser());
    const uid = Object.keys(data)[0];
    data[uid].history[0].logs[0].timestamp = "yesterday";
    await page.goto(url("/datasets/import"));
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByTestId("import-files").setInputFiles(tempUpload({ "broken.json": JSON.stringify(data) }));
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const alert = page.getByTestId("import-error");
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert).toContainText("broken.json");
    await expect(alert).toContainText("timestamp");
    await expect(alert).not.toContainText("pal-upload-");
    await expect(page.getByTestId("import-result")).toHaveCount(0);
    expect(ids().names).not.toContain(name);
    await page.goto(url("/datasets"));
    await expect(page.getByTestId("dataset-list")).not.toContainText(name);
  });

  test("a HiCUPID folder imports with its dialogue/ and qa/ folders kept", async ({ page }) => {
    await login(page, account("researcher"));
    const name = `E2E HiCUPID ${Date.now()}`;
    await page.goto(url("/datasets/import"));
    await page.getByLabel("HiCUPID").check();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByTestId("import-folder").setInputFiles(FIXTURE_HF);
    await expect(page.getByTestId("picked-files")).toContainText("hf/qa/test_1-00000-of-00001.parquet");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const result = page.getByTestId("import-result");
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(result).toContainText("qa");
    await result.getByRole("link", { name: "Open the data set" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("users-table").locator("tbody tr")).toHaveCount(3);
  });

  test("the import API refuses more than 500 MB before reading it", async () => {
    const api = await apiAs(account("researcher"));
    const manifest = Buffer.from(
      JSON.stringify({ kind: "palset", name: "too big", files: [{ path: "input.json", size: 600 * 1024 * 1024 }] }),
    );
    const len = Buffer.alloc(4);
    len.writeUInt32BE(manifest.length);
    const res = await api.post("/api/datasets/import", {
      headers: { "content-type": "application/x-pal-upload" },
      data: Buffer.concat([len, manifest]),
    });
    expect(res.status()).toBe(413);
    expect((await res.json()).error).toContain("500 MB");
    // Unsafe names are cleaned, never followed out of the upload directory.
    const m2 = Buffer.from(
      JSON.stringify({ kind: "palset", name: `E2E path ${Date.now()}`, files: [{ path: "../../etc/evil.txt", size: 1 }] }),
    );
    len.writeUInt32BE(m2.length);
    const r2 = await api.post("/api/datasets/import", {
      headers: { "content-type": "application/x-pal-upload" },
      data: Buffer.concat([len, m2, Buffer.from("x")]),
    });
    expect(r2.status()).toBe(400);
    expect((await r2.json()).error).toContain("etc/evil.txt");
  });
});

test("an annotator gets 403 on the data set, user, session, topic, QA and import pages", async ({ page }) => {
  allowConsoleErrors(pageStatus(403)); // the refused pages, on purpose
  const { en, hc, enQuery, hcUser } = ids();
  await login(page, account("annotator"));
  for (const p of [
    `/datasets/${en}`,
    `/datasets/${en}/users/${enQuery.userKey}`,
    `/datasets/${en}/users/${enQuery.userKey}/sessions/${enQuery.sampleKey}`,
    `/datasets/${en}/users/${enQuery.userKey}/sessions/${enQuery.sampleKey}/topics/topic-1`,
    `/datasets/${hc}/users/${hcUser}`,
    `/datasets/${hc}/qa`,
    "/datasets/import",
  ]) {
    const res = await page.goto(url(p));
    expect(res?.status(), p).toBe(403);
  }
  const api = await apiAs(account("annotator"));
  expect((await api.get(`/api/datasets/${en}/export`)).status()).toBe(403);
  expect((await api.post("/api/datasets/import", { data: {} })).status()).toBe(403);
});
