/**
 * The Items table's text filter at the Mem-PAL preset's full size: 116,466 jobs of one experiment over 826
 * generated (Chinese) topics, each job with a title and a reply of ~300 characters, written through the
 * job_text triggers. In process (p50 of 20): an Items page without text (the baseline), with a word of a
 * topic, a word of a few replies, a word nobody wrote, a 2-character word (titles only), a word with a
 * task filter on page 3, and the item-key filter (what `q` did before); then a page of jobs written
 * without titles (filled as shown) and the migration's one-time title fill. Target: every page ≤ 200 ms (the page's budget).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDb } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { launchExperiment } from "@/lib/experiments/create";
import { listItemRows } from "@/lib/experiments/items";
import { itemTitler } from "@/lib/experiments/item-titles";
import { textMatch } from "@/lib/experiments/item-text";
import { containsText } from "@/lib/paging";
import { listQueryTopics } from "@/lib/tasks/palset-items";
import { mulberry32 } from "@/lib/random";
import { generatePalset } from "./gen-palset";
import { pct } from "./http-session";

const TOPICS = 826;
const METHODS = 47; // 826 topics × 3 tasks × 47 = 116,466 jobs
const TASKS = ["requirement", "solution", "dialogue"];
const WORDS = [
  "建议",
  "周末",
  "安排",
  "工作",
  "家人",
  "预算",
  "时间",
  "健身",
  "会议",
  "旅行",
  "医院",
  "孩子",
  "饮食",
  "计划",
  "方案",
  "提醒",
];

const ms = (x: number) => `${x.toFixed(1)} ms`;
function inProcess<T>(label: string, f: () => T, n = 20): { p50: number; value: T } {
  let value = f();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    value = f();
    xs.push(performance.now() - t);
  }
  const p50 = pct(xs, 50);
  console.log(`  ${label}: p50 ${ms(p50)}${p50 <= 200 ? "" : " (over 200 ms)"}`);
  return { p50, value };
}

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-itemtext-"));
  try {
    const db = openDb(path.join(dir, "bench.db"));
    const file = path.join(dir, "palset.json");
    generatePalset(file, 10);
    const { datasetId } = await importPalset(db, { paths: [file], name: "bench", lang: "zh" });
    const { id } = launchExperiment(db, {
      name: "item text",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: "all" },
      limits: "override",
    });
    const real = listQueryTopics(db, datasetId, "all");
    const titleOf = itemTitler(db, datasetId, "palset");
    const r = mulberry32(11);
    const reply = () => Array.from({ length: 75 }, () => WORDS[Math.floor(r() * WORDS.length)]).join("");
    const insert = db.$client.prepare(
      `INSERT INTO jobs (experiment_id, replicate, method, task, item_key, user_key, phase, status, title, output, score)
       VALUES (?, 0, ?, ?, ?, ?, 0, 'done', ?, ?, ?)`,
    );
    let n = 0;
    const t0 = performance.now();
    db.$client.transaction(() => {
      for (let i = 0; i < TOPICS; i++) {
        const t = real[i % real.length];
        const key = i < real.length ? t.itemKey : `${t.itemKey}/copy-${Math.floor(i / real.length)}`;
        const title = titleOf(t.itemKey);
        for (const task of TASKS)
          for (let m = 0; m < METHODS; m++) {
            // A few replies hold a rare word.
            const text = n % 5000 === 7 ? `${reply()}罕见词语` : reply();
            insert.run(id, `m${m}`, task, key, t.userKey, title, JSON.stringify({ answer: text }), Math.floor(r() * 5) / 2);
            n++;
          }
      }
    })();
    const writeMs = performance.now() - t0;
    console.log(
      `${n.toLocaleString("en")} jobs written with their titles and replies indexed in ${(writeMs / 1000).toFixed(1)} s (${((1000 * writeMs) / n).toFixed(0)} µs a job)`,
    );
    const topicWord = [...titleOf(real[0].itemKey)].slice(0, 4).join("");
    console.log(`a topic's words: "${topicWord}" (title "${titleOf(real[0].itemKey)}")`);

    const plan = db
      .all<{ detail: string }>(
        sql`EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE experiment_id = ${id} AND ${textMatch(id, topicWord, containsText(sql.raw("item_key"), topicWord))}`,
      )
      .map((p) => p.detail);
    console.log(`query plan: ${plan.join(" | ")}`);
    console.log("in process (p50 of 20):");
    const base = inProcess("Items, first page, no text (baseline)", () => listItemRows(db, id));
    const topic = inProcess(`Items, q = a topic's words`, () => listItemRows(db, id, { q: topicWord }));
    const rare = inProcess("Items, q = a word of 24 replies", () => listItemRows(db, id, { q: "罕见词语" }));
    const none = inProcess("Items, q = a word nobody wrote", () => listItemRows(db, id, { q: "不存在的词" }));
    const short = inProcess("Items, q = a 2-character word (titles only)", () => listItemRows(db, id, { q: "建议" }));
    const paged = inProcess("Items, q = a topic's words, task solution, by score, page 3", () =>
      listItemRows(db, id, { q: topicWord, task: "solution", sort: "score", dir: "desc", page: 3 }),
    );
    const key = inProcess("Items, q = an item key's text (the filter before)", () => listItemRows(db, id, { q: "copy-3" }));
    console.log(
      `  matches: topic ${topic.value.filtered.toLocaleString("en")}, rare ${rare.value.filtered}, none ${none.value.filtered}, ` +
        `2-character ${short.value.filtered.toLocaleString("en")}, paged ${paged.value.filtered.toLocaleString("en")}, key ${key.value.filtered.toLocaleString("en")}`,
    );
    console.log(
      `  ratios to the baseline: topic ${(topic.p50 / base.p50).toFixed(1)}x, rare ${(rare.p50 / base.p50).toFixed(1)}x, none ${(none.p50 / base.p50).toFixed(1)}x, ` +
        `2-character ${(short.p50 / base.p50).toFixed(1)}x, paged ${(paged.p50 / base.p50).toFixed(1)}x, key ${(key.p50 / base.p50).toFixed(1)}x`,
    );
    // An experiment from before titles: the migration's title statements (before its triggers exist), and
    // a job written without a title, filled when its page is shown.
    const migration = fs.readFileSync(path.join(process.cwd(), "db/migrations/0032_jobs_item_text_fts.sql"), "utf8");
    const fills = migration.split("--> statement-breakpoint").filter((x) => x.includes("UPDATE jobs SET title"));
    db.$client.prepare("UPDATE jobs SET title = NULL WHERE experiment_id = ?").run(id);
    const page = inProcess(
      "Items, first page of jobs written without titles (the page fills its 50)",
      () => {
        db.$client
          .prepare("UPDATE jobs SET title = NULL WHERE id IN (SELECT id FROM jobs WHERE experiment_id = ? ORDER BY id LIMIT 50)")
          .run(id);
        return listItemRows(db, id);
      },
      5,
    );
    if (!page.value.rows.every((r) => r.title)) throw new Error("a page's titles were not filled");
    db.$client.exec("DROP TRIGGER jobs_text_update");
    db.$client.prepare("UPDATE jobs SET title = NULL WHERE experiment_id = ?").run(id);
    const t1 = performance.now();
    for (const f of fills) db.$client.exec(f);
    const titled = (db.$client.prepare("SELECT count(*) AS n FROM jobs WHERE title IS NOT NULL").get() as { n: number }).n;
    console.log(
      `the migration's title fill: ${titled.toLocaleString("en")} jobs titled in ${((performance.now() - t1) / 1000).toFixed(1)} s (the copies' keys are no topic's)`,
    );
    db.$client.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
