import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, type Page } from "./fixtures";
import { e2eState, login, account } from "./state";
import { startFakeOpenAI } from "../test/fake-openai";
import { labPal } from "./lab-pal";
import { experimentReplies } from "../test/experiment-replies";

/**
 * Figure 4 and the case-studies export agree (issue 44.1): a researcher highlights, in the browser, the
 * profile's last field whole (yellow, as "Hobbies" was dropped by the compact profile) and two replies (blue
 * and grey), stars the topic, then downloads the Figure 4 HTML and SVG and the case-studies HTML. Every
 * highlight is in both HTML exports with its colour and its whole text, and each export's legend has a
 * coloured swatch for every meaning used (the SVG's drawn beside its words). Set CASES_SHOTS=<dir> for
 * 1440x900 screenshots. The models are a TEST DOUBLE (test/experiment-replies.ts).
 */
const SHOTS = process.env.CASES_SHOTS;
const FILL = { need: "#fde68a", preference: "#bfdbfe", contradicts: "#d1d5db" } as const;
const MEANING = {
  need: "matches the user's background or need",
  preference: "fits the user's preference",
  contradicts: "contradicts the user's preference",
} as const;
type Colour = keyof typeof FILL;

/**
 * A small finished dialogue experiment (two methods, one user), run by `pal run` against a fake endpoint in a
 * lab database of its own and brought here as a bundle: the app's database has model settings that other
 * specs point at their own (closed) fakes, and those settings rank above this process's environment.
 */
async function dialogueExperiment(): Promise<number> {
  const fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-e2e-fig4-"));
  const lab = path.join(dir, "lab.db");
  const bundle = path.join(dir, "fig4.palbundle");
  const pal = (db: string, args: string[]) => labPal(db, fake.baseURL, args);
  try {
    await pal(lab, ["demo"]);
    const run = ["run", "--dataset", "PAL-Set demo (en)", "--method", "vanilla,vanilla-log", "--repeats", "1"];
    run.push("--task", "dialogue", "--users", "0000", "--name", "Figure 4 agreement", "--json");
    const { experiment } = JSON.parse(await pal(lab, run)) as { experiment: number };
    await pal(lab, ["bundle", "export", String(experiment), "--out", bundle]);
    const imported = await pal(e2eState().dbPath, ["bundle", "import", bundle, "--json"]);
    return (JSON.parse(imported) as { experiment: { id: number } }).experiment.id;
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Selects `length` characters (all when null) of an element's first text node as a mouse would, then picks a meaning. */
async function highlight(page: Page, el: ReturnType<Page["locator"]>, colour: Colour, length: number | null): Promise<string> {
  await el.scrollIntoViewIfNeeded();
  const quote = await el.evaluate((node, n) => {
    const text = node.firstChild!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, n === null ? (text.textContent ?? "").length : Math.min(n, (text.textContent ?? "").length));
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    node.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    return range.toString();
  }, length);
  const label = { need: "Matches background / need", preference: "Fits preference", contradicts: "Contradicts preference" }[colour];
  await page.getByTestId("mark-bar").getByRole("button", { name: label }).dispatchEvent("click");
  await expect(el.locator("mark")).toHaveText(quote);
  return quote;
}

/** The marks of an HTML export outside its legend and notes, and its legend's swatches with their computed colours. */
async function readHtml(page: Page, html: string) {
  await page.setContent(html);
  return page.evaluate(() => {
    const bg = (el: Element) => getComputedStyle(el).backgroundColor;
    const marks = [...document.querySelectorAll("mark")]
      .filter((m) => !m.closest(".legend, .notes"))
      .map((m) => ({ colour: m.className, text: (m.textContent ?? "").replace(/\s+/g, " ").trim(), bg: bg(m) }));
    const legend = [...document.querySelectorAll(".legend mark")].map((m) => ({
      colour: m.className,
      bg: bg(m),
      words: (m.nextSibling?.textContent ?? "").trim(),
    }));
    return { marks, legend };
  });
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

test("Figure 4 and the case-studies export show the same highlights, with a swatch for every meaning used", async ({ browser }) => {
  test.setTimeout(240_000);
  const id = await dialogueExperiment();
  const base = e2eState().baseURL;
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await login(page, account("researcher"));
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath, { readonly: true });
  const item = (
    db.prepare("SELECT item_key AS k FROM jobs WHERE experiment_id = ? AND task = 'dialogue' ORDER BY id LIMIT 1").get(id) as {
      k: string;
    }
  ).k;
  db.close();
  await page.goto(`${base}/experiments/${id}/compare?task=dialogue&item=${encodeURIComponent(item)}`);

  // The profile's last field, whole (the compact profile used to leave the last ones out), in yellow.
  const fields = page.getByTestId("item-info").locator('[data-block^="info:Profile:"]');
  const lastField = fields.last();
  const profileQuote = await highlight(page, lastField, "need", null);
  // A reply of each method: blue on one, grey on the other.
  const reply = (method: string) =>
    page
      .locator(`[data-testid="compare-columns"] [data-testid="method-output"][data-method="${method}"]`)
      .getByTestId("turn-assistant")
      .nth(1)
      .locator("[data-block]")
      .first();
  const blueQuote = await highlight(page, reply("vanilla-log"), "preference", 14);
  const greyQuote = await highlight(page, reply("vanilla"), "contradicts", 10);
  const made: Array<{ colour: Colour; text: string }> = [
    { colour: "need", text: profileQuote },
    { colour: "preference", text: blueQuote },
    { colour: "contradicts", text: greyQuote },
  ].map((m) => ({ colour: m.colour as Colour, text: m.text.replace(/\s+/g, " ").trim() }));
  await page.getByRole("button", { name: "☆ Star as case study" }).click();
  const star = page.getByRole("form", { name: "Case study star" });
  await star.getByLabel("Note").fill("Both exports must agree.");
  await star.getByRole("button", { name: "Star" }).click();
  await expect(page.getByTestId("star-note")).toContainText("Both exports must agree.");
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, "figure4-agree-marks.png") });
  }

  // The case-studies export (the page's link) and Figure 4 (its page's defaults, as a researcher opens it).
  await page.goto(`${base}/experiments/${id}/case-studies`);
  const casesHref = await page.getByRole("link", { name: "Export HTML figure" }).getAttribute("href");
  const casesHtml = await (await page.request.get(new URL(casesHref!, base).toString())).text();
  await page.getByTestId("case-study").getByRole("link", { name: "Figure 4…" }).click();
  await page.waitForURL(/\/figure\?/);
  await expect(page.getByTestId("figure-preview")).toBeVisible();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "figure4-agree-figure.png") });
  const figureHref = await page.getByRole("link", { name: "Download HTML" }).getAttribute("href");
  const figureHtml = await (await page.request.get(new URL(figureHref!, base).toString())).text();
  const svgSrc = await page.getByTestId("figure-preview").getAttribute("src");
  const svg = await (await page.request.get(new URL(svgSrc!, base).toString())).text();

  const reader = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const figure = await readHtml(reader, figureHtml);
  const cases = await readHtml(reader, casesHtml);
  for (const m of made) {
    // Each highlight in both, whole, in its colour (Figure 4 may wrap it, never cut it).
    for (const [name, doc] of [
      ["Figure 4", figure],
      ["case studies", cases],
    ] as const) {
      const found = doc.marks.filter((x) => x.colour === m.colour && x.text === m.text);
      expect(found, `${name}: the ${m.colour} mark "${m.text}"`).not.toHaveLength(0);
      expect(found[0].bg, `${name}: the ${m.colour} mark's colour`).toBe(rgb(FILL[m.colour]));
    }
  }
  // The same marks in both: nothing one shows that the other does not.
  const key = (x: { colour: string; text: string }) => `${x.colour}|${x.text}`;
  expect(new Set(figure.marks.map(key))).toEqual(new Set(cases.marks.map(key)));
  // Every meaning used has a coloured swatch and its words in each legend.
  for (const c of ["need", "preference", "contradicts"] as Colour[]) {
    for (const doc of [figure, cases]) {
      const sw = doc.legend.find((l) => l.colour === c);
      expect(sw, `legend swatch for ${c}`).toBeTruthy();
      expect(sw!.bg).toBe(rgb(FILL[c]));
      expect(sw!.words).toContain(MEANING[c]);
    }
  }

  // The SVG: the profile field's whole text is drawn, and each meaning's words sit beside a swatch of its colour.
  await reader.setContent(`<!doctype html><body style="margin:0">${svg.replace(/^<\?xml[^>]*>/, "")}</body>`);
  const drawn = await reader.evaluate(
    ({ meanings, fills }) => {
      const texts = [...document.querySelectorAll("svg text")];
      const all = texts.map((t) => t.textContent ?? "").join(" ");
      const swatches = Object.entries(meanings).map(([c, words]) => {
        const t = texts.find((x) => (x.textContent ?? "").includes(words));
        if (!t) return { c, words: false, swatch: false };
        const tb = t.getBoundingClientRect();
        const swatch = [...document.querySelectorAll(`svg rect[fill="${fills[c as keyof typeof fills]}"]`)].some((r) => {
          const rb = r.getBoundingClientRect();
          return rb.width > 4 && rb.top < tb.bottom && rb.bottom > tb.top && rb.left >= tb.left - 2 && rb.right <= tb.left + 60;
        });
        return { c, words: true, swatch };
      });
      return { all: all.replace(/\s+/g, " "), swatches };
    },
    { meanings: MEANING, fills: FILL },
  );
  for (const s of drawn.swatches) expect(s, `SVG legend for ${s.c}`).toEqual({ c: s.c, words: true, swatch: true });
  // The wrap may break the field's text over lines: compare with the spaces taken out.
  expect(drawn.all.replace(/\s/g, "")).toContain(profileQuote.replace(/\s/g, ""));
  if (SHOTS) {
    await reader.setContent(figureHtml);
    await reader.screenshot({ path: path.join(SHOTS, "figure4-agree-html.png") });
    await reader.setContent(casesHtml);
    await reader.screenshot({ path: path.join(SHOTS, "figure4-agree-cases.png") });
  }
});
