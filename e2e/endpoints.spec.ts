/**
 * Endpoints on Admin → Models. Specs share one app and database and run in parallel, and the others
 * rely on the global roles (assistant, user-simulator, judge) as the environment sets them: this spec
 * never touches those rows. It works with two named judges of its own and removes everything it
 * made (named judges, endpoints) in a finally, whatever fails.
 */
import { test, expect } from "./fixtures";
import Database from "better-sqlite3";
import { e2eState, login, account } from "./state";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";

let fake: FakeOpenAI;
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: () => '{"ok": true}' });
});
test.afterAll(async () => {
  await fake.close();
});

test("an admin defines endpoints once and points named judges at them; the global roles are never touched; no key reaches the browser", async ({
  page,
}) => {
  const secret = "sk-e2e-endpoint-9191";
  // Unique per run, so a retry or a second worker never meets this run's leftovers.
  const s = Date.now().toString(36).slice(-5);
  const lab = `e2e lab ${s}`;
  const spare = `e2e spare ${s}`;
  const [judgeA, judgeB] = [`judge:e2e-a-${s}`, `judge:e2e-b-${s}`];
  let touched: unknown[] = [];
  try {
    await login(page, account("admin"));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${e2eState().baseURL}/admin/models`);

    const create = page.getByRole("form", { name: "Define an endpoint" });
    // A submitted form is reset (React form actions), so every try fills it whole.
    const define = async (name: string, url: string, tpm: string, jsonMode: string) => {
      await create.getByLabel("Name").fill(name);
      await create.getByLabel("Base URL").fill(url);
      await create.getByLabel(/API key/).fill(secret);
      await create.getByLabel("Models (optional)").fill("e2e-judge-a, e2e-judge-b");
      await create.getByLabel("In flight").fill("3");
      await create.getByLabel("Requests/min").fill("600");
      await create.getByLabel("Tokens/min").fill(tpm);
      await create.getByLabel("JSON mode").selectOption(jsonMode);
      await create.getByRole("button", { name: "Add endpoint" }).click();
    };
    await define(lab, fake.baseURL, "abc", "json_schema");
    // Bad input names the field and saves nothing.
    await expect(create.getByRole("alert")).toContainText("tokens/min");
    await expect(page.getByTestId(`endpoint-${lab}`)).toHaveCount(0);
    await define(lab, fake.baseURL, "100000", "json_schema");
    const card = page.getByTestId(`endpoint-${lab}`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId("endpoint-key")).toHaveText("set");
    await expect(card.getByLabel("JSON mode")).toHaveValue("json_schema");
    await define(spare, "http://127.0.0.1:9/v1", "", "json_object");
    await expect(page.getByTestId(`endpoint-${spare}`)).toBeVisible();

    // The Batch API mark: off for a new endpoint; ticked on its card, saved, and shown after a reload.
    await expect(card.getByTestId("endpoint-batch-api")).toHaveText("not marked");
    await card.getByLabel("Supports the Batch API (half price)").check();
    await card.getByRole("button", { name: "Save endpoint" }).click();
    await expect(card.getByRole("status")).toHaveText(`Saved endpoint ${lab}.`);
    await page.reload();
    await expect(card.getByTestId("endpoint-batch-api")).toHaveText("yes (half price)");
    await expect(card.getByLabel("Supports the Batch API (half price)")).toBeChecked();
    await expect(page.getByTestId(`endpoint-${spare}`).getByTestId("endpoint-batch-api")).toHaveText("not marked");

    // Two named judges of this spec's own (added b first: the used-by list is sorted, not in saving order).
    const add = page.getByRole("form", { name: "Add a named judge" });
    for (const [name, model] of [
      [judgeB, "e2e-judge-b"],
      [judgeA, "e2e-judge-a"],
    ]) {
      await add.getByLabel("Judge name").fill(name);
      await add.getByLabel("Model").fill(model);
      await add.getByRole("button", { name: "Add judge" }).click();
      await expect(page.getByTestId(`model-${name}`)).toBeVisible();
    }
    // Both point at the endpoint without typing its URL or key again.
    for (const name of [judgeB, judgeA]) {
      const judgeCard = page.getByTestId(`model-${name}`);
      const form = judgeCard.getByRole("form", { name: `Settings of ${name}` });
      await form.getByLabel(/^Endpoint/).selectOption(lab);
      await form.getByRole("button", { name: "Save" }).click();
      await expect(judgeCard.getByText(`Saved ${name}.`)).toBeVisible();
    }
    // Saving the form again, as it now shows (issue 26, item 6): the endpoint stays chosen and linked (it read
    // "none: the URL and key below" after the first save, and the second save unlinked it: "key: missing").
    for (const name of [judgeB, judgeA]) {
      const judgeCard = page.getByTestId(`model-${name}`);
      const form = judgeCard.getByRole("form", { name: `Settings of ${name}` });
      await expect(form.getByLabel(/^Endpoint/)).toHaveValue(lab);
      await form.getByRole("button", { name: "Save" }).click();
      await expect(form.getByLabel(/^Endpoint/)).toHaveValue(lab);
      await expect(judgeCard.getByTestId("key-status")).toHaveText("set");
    }
    await page.reload();
    await expect(page.getByTestId(`endpoint-${lab}`).getByTestId("endpoint-used-by")).toHaveText(`${judgeA}, ${judgeB}`);
    await expect(page.getByTestId(`endpoint-${spare}`).getByTestId("endpoint-used-by")).toHaveText("no role yet");
    await expect(page.getByTestId(`model-${judgeA}`).getByText(`Base URL (endpoint ${lab})`)).toBeVisible();
    await expect(page.getByTestId(`model-${judgeA}`).getByTestId("key-status")).toHaveText("set");

    // Test connection goes to the endpoint with its key and the judge's model.
    const a = page.getByTestId(`model-${judgeA}`);
    await a.getByRole("button", { name: "Test connection" }).click();
    await expect(a.getByRole("status").filter({ hasText: "answered in" })).toContainText('JSON mode json_schema: {"ok": true}');
    expect(fake.chatRequests.at(-1)?.model).toBe("e2e-judge-a");
    expect(await page.content()).not.toContain(secret);

    // A URL saved on judge b (the endpoint select left as it was) lets go of the endpoint.
    const b = page.getByTestId(`model-${judgeB}`);
    await b
      .getByRole("form", { name: `Settings of ${judgeB}` })
      .getByLabel(/^Base URL/)
      .fill(fake.baseURL);
    await b.getByRole("button", { name: "Save" }).click();
    await expect(b.getByText(`Saved ${judgeB}.`)).toBeVisible();
    await page.reload();
    await expect(page.getByTestId(`endpoint-${lab}`).getByTestId("endpoint-used-by")).toHaveText(judgeA);
    await expect(page.getByTestId(`model-${judgeB}`).getByText("Base URL (settings)")).toBeVisible();

    // An endpoint that refused its JSON mode shows the fallback as a note (the client records it so; lib/llm/json-mode.test.ts).
    const w = new Database(e2eState().dbPath);
    try {
      w.prepare("UPDATE endpoints SET json_mode_fallback = 'off', json_mode_note = ? WHERE name = ?").run(
        "json_object refused on 2026-11-25 10:00 UTC (HTTP 400: response_format is not supported); using plain replies",
        spare,
      );
    } finally {
      w.close();
    }
    await page.reload();
    await expect(page.getByTestId(`endpoint-${spare}`).getByTestId("endpoint-json-note")).toContainText("using plain replies");
    await page.evaluate(() => document.querySelectorAll("main, body, html").forEach((el) => el.scrollTo(0, 0)));
    await page.screenshot({ path: test.info().outputPath("endpoints-models.png"), fullPage: false });
    await page.screenshot({ path: test.info().outputPath("endpoints-models-full.png"), fullPage: true });

    const db = new Database(e2eState().dbPath, { readonly: true });
    const rows = JSON.stringify(db.prepare("SELECT * FROM endpoints WHERE name = ?").all(lab));
    const pointed = db
      .prepare("SELECT name, endpoint_id IS NOT NULL AS onEndpoint FROM model_settings WHERE name IN (?, ?) ORDER BY name")
      .all(judgeA, judgeB);
    // No global role points at this spec's endpoints (other specs rely on them as the environment sets them).
    const rolesOnIt = db
      .prepare(
        "SELECT name FROM model_settings WHERE name NOT LIKE 'judge:%' AND endpoint_id IN (SELECT id FROM endpoints WHERE name IN (?, ?))",
      )
      .all(lab, spare);
    db.close();
    expect(rolesOnIt).toEqual([]);
    expect(rows).toContain('"rpm":600');
    expect(rows).toContain('"json_mode":"json_schema"');
    expect(rows).toContain('"batch_api":1');
    expect(rows).not.toContain(secret);
    expect(pointed).toEqual([
      { name: judgeA, onEndpoint: 1 },
      { name: judgeB, onEndpoint: 0 },
    ]);

    // Removing an endpoint returns its judges to their own settings.
    await page.getByRole("button", { name: `Remove endpoint ${lab}` }).click();
    await expect(page.getByTestId(`endpoint-${lab}`)).toHaveCount(0);
    await expect(page.getByTestId(`model-${judgeA}`).getByText(`Base URL (endpoint ${lab})`)).toHaveCount(0);
  } finally {
    // Whatever happened above: this spec's judges and endpoints go. First, what of this spec's reached
    // a global role (other specs change those rows in parallel, so only this spec's marks are looked for).
    const db = new Database(e2eState().dbPath);
    try {
      touched = db
        .prepare(
          `SELECT name FROM model_settings WHERE name NOT LIKE 'judge:%' AND (
             endpoint_id IN (SELECT id FROM endpoints WHERE name IN (?, ?)) OR base_url = ? OR model IN ('e2e-judge-a', 'e2e-judge-b'))`,
        )
        .all(lab, spare, fake.baseURL);
      db.prepare("DELETE FROM model_settings WHERE name IN (?, ?)").run(judgeA, judgeB);
      db.prepare("DELETE FROM endpoints WHERE name IN (?, ?)").run(lab, spare);
    } finally {
      db.close();
    }
  }
  expect(touched).toEqual([]);
});
