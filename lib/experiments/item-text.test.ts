/**
 * Items read as text, on a real experiment run against the fake OpenAI server (TEST DOUBLE): titles are the
 * topics' queries with their user; the text filter finds an item by a word of its topic and by a word of a
 * reply (the job_text FTS5 index kept by triggers), not by an unrelated word, with counts and paging right.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { demoExperiment, type DemoExperiment } from "@/test/demo-experiment";
import { eq, sql } from "drizzle-orm";
import { jobs } from "@/db/schema";
import { loadPalItem } from "@/lib/tasks/palset-items";
import { listItemRows } from "./items";
import { formatTitle, TITLE_MAX } from "./item-titles";
import { ftsQuery, searchWords, textMatch } from "./item-text";
import { containsText } from "@/lib/paging";

const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 5);
const textOf = (v: unknown): string =>
  typeof v === "string"
    ? v
    : Array.isArray(v)
      ? v.map(textOf).join(" ")
      : v && typeof v === "object"
        ? Object.values(v).map(textOf).join(" ")
        : "";

describe("items read as text", () => {
  const run = demoExperiment("text", { methods: [{ name: "vanilla" }], tasks: ["requirement", "solution"], users: ["0000"] });
  let t: DemoExperiment["t"];
  let id: number;
  let datasetId: number;
  beforeAll(() => {
    ({ t, id, datasetId } = run);
  });

  const all = () => t.db.select().from(jobs).where(eq(jobs.experimentId, id)).all();

  it("titles each item with its topic's user query and its user, clipped", () => {
    const rows = listItemRows(t.db, id, { size: 200 }).rows;
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) {
      const it = loadPalItem(t.db, datasetId, r.itemKey);
      expect(r.title).toBe(formatTitle(it.userQuery, "0000"));
      expect(r.title).toMatch(/ \(user 0000\)$/);
      expect(r.title.length).toBeLessThanOrEqual(TITLE_MAX + " (user 0000)".length);
    }
    expect(formatTitle("word ".repeat(60), "7")).toMatch(/^(word )+word… \(user 7\)$/);
  });

  it("finds items by a word of the topic, with the right counts and pages, and not by an unrelated word", () => {
    const js = all();
    // A word of one title that not every title holds.
    const word = words(js[0].title!).find((w) => js.some((j) => !j.title!.toLowerCase().includes(w)))!;
    expect(word).toBeTruthy();
    const holds = js.filter((j) => `${j.title} ${textOf(j.output)}`.toLowerCase().includes(word));
    const page = listItemRows(t.db, id, { q: word, size: 200 });
    expect(page.filtered).toBe(holds.length);
    expect(page.rows.map((r) => r.id).sort()).toEqual(holds.map((j) => j.id).sort());
    expect(page.rows.map((r) => r.id)).toContain(js[0].id);
    // Combined with a filter and paging: one task, one row a page, the count of that task's matches.
    const task = js[0].task;
    const one = listItemRows(t.db, id, { q: word.toUpperCase(), task, size: 1 });
    expect(one.filtered).toBe(holds.filter((j) => j.task === task).length);
    expect(one.rows).toHaveLength(1);
    expect(listItemRows(t.db, id, { q: "zyxwvut" }).filtered).toBe(0);
    // Still the item key: "topic-1" is no word of the topics.
    expect(listItemRows(t.db, id, { q: "/topic-1" }).filtered).toBe(js.filter((j) => j.itemKey.includes("/topic-1")).length);
  });

  it("finds items by a word of a reply that no title holds", () => {
    const js = all();
    const titles = js.map((j) => j.title!.toLowerCase()).join(" ");
    const job = js.find((j) => words(textOf(j.output)).some((w) => !titles.includes(w)))!;
    const word = words(textOf(job.output)).find((w) => !titles.includes(w))!;
    const page = listItemRows(t.db, id, { q: word, size: 200 });
    expect(page.rows.map((r) => r.id)).toContain(job.id);
    expect(page.filtered).toBe(js.filter((j) => `${j.title} ${textOf(j.output)}`.toLowerCase().includes(word)).length);
  });

  it("keeps the index as outputs are written and jobs deleted; titles the jobs from before titles (the migration) and a page's untitled jobs", () => {
    const [a] = all();
    t.db
      .update(jobs)
      .set({ output: { answer: "A zebracorn plan" } })
      .where(eq(jobs.id, a.id))
      .run();
    expect(listItemRows(t.db, id, { q: "zebracorn" }).rows.map((r) => r.id)).toEqual([a.id]);
    t.db
      .update(jobs)
      .set({ output: { answer: "nothing" } })
      .where(eq(jobs.id, a.id))
      .run();
    expect(listItemRows(t.db, id, { q: "zebracorn" }).filtered).toBe(0);
    // Jobs from before titles: the migration's statements title them, and the update trigger indexes them.
    const word = words(a.title!)[0];
    const before = listItemRows(t.db, id, { q: word }).filtered;
    const migration = fs.readFileSync(path.join(process.cwd(), "db/migrations/0032_jobs_item_text_fts.sql"), "utf8");
    const fills = migration.split("--> statement-breakpoint").filter((x) => x.includes("UPDATE jobs SET title"));
    expect(fills).toHaveLength(2);
    t.db.update(jobs).set({ title: null }).where(eq(jobs.experimentId, id)).run();
    expect(t.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM job_text WHERE job_text MATCH ${ftsQuery(id, [word])}`)?.n).toBe(0);
    for (const f of fills) t.db.$client.exec(f);
    for (const j of all()) expect(j.title).toBe(formatTitle(loadPalItem(t.db, datasetId, j.itemKey).userQuery, "0000"));
    expect(listItemRows(t.db, id, { q: word }).filtered).toBe(before);
    // A job written without a title gets it when its page is shown.
    t.db.update(jobs).set({ title: null }).where(eq(jobs.id, a.id)).run();
    expect(listItemRows(t.db, id, { size: 200 }).rows.find((r) => r.id === a.id)?.title).toBe(a.title);
    expect(all().find((j) => j.id === a.id)?.title).toBe(a.title);
  });

  it("finds Chinese words inside a sentence; words under 3 characters in the titles", () => {
    const [a, b] = all();
    t.db
      .update(jobs)
      .set({ output: { answer: "周末可以去公园拍照片，光线比较好。" } })
      .where(eq(jobs.id, a.id))
      .run();
    expect(listItemRows(t.db, id, { q: "拍照片" }).rows.map((r) => r.id)).toEqual([a.id]);
    expect(listItemRows(t.db, id, { q: "去公园 比较好" }).rows.map((r) => r.id)).toEqual([a.id]);
    expect(listItemRows(t.db, id, { q: "拍照片 zyxwvut" }).filtered).toBe(0);
    // A 2-character word: titles only (the trigram index cannot hold it).
    t.db.update(jobs).set({ title: "排班 偏好 (user 0000)" }).where(eq(jobs.id, b.id)).run();
    expect(listItemRows(t.db, id, { q: "排班" }).rows.map((r) => r.id)).toEqual([b.id]);
    expect(listItemRows(t.db, id, { q: "照片" }).filtered).toBe(0);
  });

  it("reads the matches from the FTS index, scoped to the experiment", () => {
    expect(searchWords("roster, 2nd! 排班")).toEqual({ long: ["roster", "2nd"], short: ["排班"] });
    expect(ftsQuery(7, ['say "hi"'])).toBe('exp : "<e7>" AND {title replies} : ("say ""hi""")');
    expect(ftsQuery(7, [])).toBeNull();
    const cond = textMatch(id, "roster", containsText(sql.raw("item_key"), "roster"));
    const plan = t.db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE experiment_id = ${id} AND ${cond}`);
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/SCAN job_text VIRTUAL TABLE INDEX/);
    // Another experiment's jobs with the same words are not matched: the scope is inside the index.
    const word = words(all()[0].title!)[0];
    const other = t.db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM job_text WHERE job_text MATCH ${`exp : "e${id + 1}" AND "${word}"*`}`,
    );
    expect(other?.n).toBe(0);
  });
});
