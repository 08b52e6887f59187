import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL, LOCOMO_DEMO, LONGMEMEVAL_DEMO, PALSET_EN } from "@/test/fixtures";
import type { Db } from "@/db/client";
import { experiments, jobs } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { listConvItems, loadConvItem, referenceText } from "@/lib/tasks/convqa/items";
import { listQueryTopics } from "@/lib/tasks/palset-items";
import { listHcItems, loadHcItem } from "@/lib/tasks/hicupid/items";
import { createCampaign, itemView, myQueue, presentAssignment, submitLabels } from "@/lib/annotation";
import { experimentSourceChoices } from "./experiment-items";

let t: ReturnType<typeof tempDb>;
let db: Db;
let researcher: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  researcher = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(() => t.cleanup());

/** An experiment row with finished jobs, as the experiments engine stores them (output per method and item). */
function experiment(
  datasetId: number,
  rows: Array<{ method: string; task: string; itemKey: string; output: unknown; status?: "done" | "failed" }>,
) {
  const e = db
    .insert(experiments)
    .values({ name: "exp", datasetId, datasetHash: "h", config: {}, configHash: "c", status: "done" })
    .returning()
    .get();
  for (const r of rows)
    db.insert(jobs)
      .values({ experimentId: e.id, method: r.method, task: r.task, itemKey: r.itemKey, status: r.status ?? "done", output: r.output })
      .run();
  return e.id;
}

const dialogue = (who: string) => [
  { role: "user", content: "I need a plan." },
  { role: "assistant", content: `Reply by ${who === "h2memory" ? "the first" : "the second"} assistant.` },
];

describe("campaign items from an experiment", () => {
  it("pairs two methods' dialogues per topic, links the systems to the experiment, and never shows a method name", async () => {
    const ds = await importPalset(db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const topics = listQueryTopics(db, ds.datasetId, "all").slice(0, 3);
    const exp = experiment(ds.datasetId, [
      ...topics.flatMap((tp) =>
        ["h2memory", "vanilla-log"].map((m) => ({
          method: m,
          task: "dialogue",
          itemKey: tp.itemKey,
          output: { template: {}, dialogue: dialogue(m) },
        })),
      ),
      // Only one method finished this topic: no pair, no item. A pairwise judging job is not a method.
      { method: "h2memory", task: "dialogue", itemKey: "x/y/z", output: { dialogue: dialogue("h2memory") } },
      { method: "h2memory~vanilla-log", task: "dialogue", itemKey: topics[0].itemKey, output: {} },
    ]);
    expect(experimentSourceChoices(db)).toEqual([{ id: exp, name: "exp", tasks: { dialogue: ["h2memory", "vanilla-log"] } }]);
    const c = createCampaign(
      db,
      {
        name: "from exp",
        kind: "pairwise-dialogue",
        perItem: 2,
        annotatorIds: ann,
        source: { kind: "experiment", experimentId: exp, methodA: "h2memory", methodB: "vanilla-log" },
      },
      researcher,
    );
    expect(c.items).toBe(3);
    expect(db.$client.prepare("select dataset_id as d, source from campaigns where id = ?").get(c.id)).toEqual({
      d: ds.datasetId,
      source: "experiment",
    });
    const systems = db.$client
      .prepare("select slot, name, experiment_id, method from campaign_systems where campaign_id = ? order by slot")
      .all(c.id);
    expect(systems).toEqual([
      { slot: "A", name: "h2memory", experiment_id: exp, method: "h2memory" },
      { slot: "B", name: "vanilla-log", experiment_id: exp, method: "vanilla-log" },
    ]);
    const content = JSON.parse(
      (db.$client.prepare("select content from campaign_items where campaign_id = ? order by position").get(c.id) as { content: string })
        .content,
    );
    expect(Object.keys(content.userInfo).sort()).toEqual([
      "background",
      "general_preference",
      "implicit_needs",
      "personality",
      "requirement",
      "situation",
      "solutions",
      "user_query",
    ]);
    // The user's background and personality are fields, not JSON text (issue 26, item 4).
    expect(typeof content.userInfo.background).toBe("object");
    expect(typeof content.userInfo.personality).toBe("object");
    expect(String(content.userInfo.background.name ?? "")).not.toContain("{");
    // The researcher's item page links back to the experiment's compare view and side A's job (issue 26, item 5).
    const first = db.$client
      .prepare("select id, external_id e, title from campaign_items where campaign_id = ? order by position")
      .get(c.id) as { id: number; e: string; title: string };
    expect(first.title).toBe(`${content.topic} (user ${first.e.split("/")[0]})`);
    const src = itemView(db, c.id, first.id).source!;
    expect(src.compareHref).toBe(
      `/experiments/${exp}/compare?task=dialogue&item=${encodeURIComponent(first.e)}&m=h2memory&m=vanilla-log&run=0`,
    );
    const jobId = (
      db.$client.prepare("select id from jobs where experiment_id = ? and method = 'h2memory' and item_key = ?").get(exp, first.e) as {
        id: number;
      }
    ).id;
    expect(src.jobHref).toBe(`/experiments/${exp}/jobs/${jobId}`);
    // What an annotator receives for each item: outputs in the shown order, no method name.
    const q = myQueue(db, ann[0], c.id);
    expect(q.entries.length).toBeGreaterThan(0);
    for (const a of q.entries) {
      const shown = JSON.stringify(presentAssignment(db, ann[0], a.assignmentId));
      expect(shown).not.toMatch(/h2memory|vanilla-log/);
      expect(shown).toContain("Reply by the first assistant.");
      expect(shown).toContain("Reply by the second assistant.");
    }
  });

  it("issue 42: answer correctness from a LoCoMo or LongMemEval experiment, one method's answers beside the reference, blinded", async () => {
    const loc = await importLocomo(db, { paths: [LOCOMO_DEMO], name: "loc" });
    const items = listConvItems(db, loc.datasetId, "all");
    const exp = experiment(loc.datasetId, [
      ...items.flatMap((it, i) =>
        ["turn-rag", "h2memory"].map((m) => ({
          method: m,
          task: "locomo",
          itemKey: it.itemKey,
          output: { answer: `${m === "turn-rag" ? "first" : "second"} answer ${i}` },
        })),
      ),
      { method: "turn-rag", task: "locomo", itemKey: "conv-demo-1#99", output: { answer: "x" }, status: "failed" as const },
    ]);
    expect(experimentSourceChoices(db)).toEqual([{ id: exp, name: "exp", tasks: { locomo: ["h2memory", "turn-rag"] } }]);
    const c = createCampaign(
      db,
      {
        name: "turn-rag answers",
        kind: "answer-correctness",
        perItem: 1,
        annotatorIds: [ann[0]],
        source: { kind: "experiment", experimentId: exp, methodA: "turn-rag" },
      },
      researcher,
    );
    expect(c.items).toBe(items.length);
    const cfg = JSON.parse((db.$client.prepare("select config from campaigns where id = ?").get(c.id) as { config: string }).config);
    expect(cfg).toMatchObject({ experimentId: exp, methodA: "turn-rag", task: "locomo", replicate: 0 });
    const rows = db.$client
      .prepare("select id, external_id e, title, content from campaign_items where campaign_id = ? order by position")
      .all(c.id) as Array<{ id: number; e: string; title: string; content: string }>;
    for (const r of rows) {
      const it = loadConvItem(db, loc.datasetId, r.e);
      // Only what the upload path stores: the question, the reference and the answer; the method's, never the other's.
      expect(JSON.parse(r.content)).toEqual({
        context: { question: it.question, reference: referenceText(it) },
        output: expect.stringMatching(/^first answer \d+$/),
      });
    }
    // The researcher's item page links to the job and the compare view of the locomo task.
    const src = itemView(db, c.id, rows[0].id).source!;
    expect(src.compareHref).toBe(`/experiments/${exp}/compare?task=locomo&item=${encodeURIComponent(rows[0].e)}&m=turn-rag&run=0`);
    expect(src.jobHref).toMatch(new RegExp(`^/experiments/${exp}/jobs/\\d+$`));
    // What the annotator receives names no method, task or score, and they label it with the kind's scale.
    const q = myQueue(db, ann[0], c.id);
    expect(q.entries.length).toBe(items.length);
    for (const a of q.entries) {
      const shown = JSON.stringify(presentAssignment(db, ann[0], a.assignmentId));
      expect(shown).not.toMatch(/turn-rag|h2memory|locomo|f1/i);
      expect(shown).toMatch(/first answer/);
    }
    submitLabels(db, ann[0], q.entries[0].assignmentId, { submissionId: "submission-1", values: { correctness: "correct" } });
    expect(db.$client.prepare("select value from labels").all()).toEqual([{ value: "correct" }]);

    // Side B has no meaning here: refused, and nothing stored.
    const before = db.$client.prepare("select count(*) n from campaigns").get();
    expect(() =>
      createCampaign(
        db,
        {
          name: "x",
          kind: "answer-correctness",
          perItem: 1,
          annotatorIds: [ann[0]],
          source: { kind: "experiment", experimentId: exp, methodA: "turn-rag", methodB: "h2memory" },
        },
        researcher,
      ),
    ).toThrow(/source.methodB: answer-correctness items show one method's answers/);
    expect(() =>
      createCampaign(
        db,
        {
          name: "x",
          kind: "answer-correctness",
          perItem: 1,
          annotatorIds: [ann[0]],
          source: { kind: "experiment", experimentId: exp, methodA: "vanilla" },
        },
        researcher,
      ),
    ).toThrow(`source: experiment ${exp} has no finished LoCoMo or LongMemEval answer of vanilla (run 1)`);
    expect(db.$client.prepare("select count(*) n from campaigns").get()).toEqual(before);

    // LongMemEval: the same path, its reference the answer (abstention questions too).
    const lme = await importLongMemEval(db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
    const qs = listConvItems(db, lme.datasetId, "all");
    const exp2 = experiment(
      lme.datasetId,
      qs.map((it) => ({ method: "vanilla", task: "longmemeval", itemKey: it.itemKey, output: { answer: "I do not know." } })),
    );
    const c2 = createCampaign(
      db,
      {
        name: "lme",
        kind: "answer-correctness",
        perItem: 1,
        annotatorIds: [ann[1]],
        source: { kind: "experiment", experimentId: exp2, methodA: "vanilla" },
      },
      researcher,
    );
    expect(c2.items).toBe(qs.length);
    const one = db.$client
      .prepare("select external_id e, content from campaign_items where campaign_id = ? order by position")
      .get(c2.id) as { e: string; content: string };
    expect(JSON.parse(one.content).context.reference).toBe(loadConvItem(db, lme.datasetId, one.e).answer);
  });

  it("takes a method's HiCUPID answers against the personalized reference, leaving schedule questions out", async () => {
    const ds = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "hc" });
    const items = listHcItems(db, ds.datasetId, "all", ["test_1", "test_2"]);
    const exp = experiment(
      ds.datasetId,
      items.map((it, i) => ({ method: "utterance-rag", task: "hicupid", itemKey: it.itemKey, output: { answer: `answer ${i}` } })),
    );
    const kept = items.filter((it) => loadHcItem(db, ds.datasetId, it.itemKey).type !== "schedule");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(items.length);
    const c = createCampaign(
      db,
      {
        name: "hc",
        kind: "hicupid-ab",
        perItem: 1,
        annotatorIds: ann,
        source: { kind: "experiment", experimentId: exp, methodA: "utterance-rag" },
      },
      researcher,
    );
    expect(c.items).toBe(kept.length);
    const out = db.$client
      .prepare(
        "select s.slot, s.name, s.experiment_id as e, o.output from campaign_outputs o join campaign_systems s on s.id = o.system_id join campaign_items i on i.id = o.item_id where i.external_id = ?",
      )
      .all(kept[0].itemKey) as Array<{ slot: string; name: string; e: number; output: string }>;
    const ref = loadHcItem(db, ds.datasetId, kept[0].itemKey).personalizedAnswer;
    expect(out.find((o) => o.slot === "B")).toMatchObject({ name: "reference", e: exp, output: JSON.stringify(ref) });
    expect(out.find((o) => o.slot === "A")!.name).toBe("utterance-rag");
  });

  it("names what is missing and stores nothing", async () => {
    const ds = await importPalset(db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const exp = experiment(ds.datasetId, []);
    const mk =
      (methodB?: string, methodA = "h2memory", experimentId = exp) =>
      () =>
        createCampaign(
          db,
          {
            name: "x",
            kind: "pairwise-dialogue",
            perItem: 1,
            annotatorIds: ann,
            source: { kind: "experiment", experimentId, methodA, methodB },
          },
          researcher,
        );
    expect(mk()).toThrow(/source.methodB: choose the second method/);
    expect(mk("vanilla")).toThrow(/has no dialogue that both h2memory and vanilla finished/);
    expect(mk("b", "a", 999)).toThrow(/no experiment with id 999/);
    expect(db.$client.prepare("select count(*) as n from campaigns").get()).toEqual({ n: 0 });
  });
});
