/**
 * Issue 42 item 4: a LoCoMo or LongMemEval run bundled `--with-data` carries its cm_ rows (threads, the sessions
 * of their timelines once each, turns, timeline, QA) and imports into a database without the data set, the same
 * scores and items there; the rows are checked as data like every other table (a wrong type or an orphan row is
 * refused naming the file, table, row and column, and nothing is written). Real SQLite, the fake server over HTTP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { LOCOMO_DEMO, LONGMEMEVAL_DEMO } from "@/test/fixtures";
import { editedCopy, rowCounts } from "@/test/hostile-bundle";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { applyPreset } from "@/lib/experiments/presets";
import { exportBundle } from "./export";
import { importBundle } from "./import";
import { CONVMEM_TABLES } from "./data-steps";

type Db = ReturnType<typeof tempDb>["db"];

/** The data set's rows as content (no ids): what must arrive unchanged. */
function contentOf(db: Db, datasetId: number) {
  const q = (sql: string) => db.$client.prepare(sql).all(datasetId);
  return {
    threads: q(
      "SELECT thread_key, position, speaker_a, speaker_b, session_count, turn_count, qa_count, extra FROM cm_threads WHERE dataset_id = ? ORDER BY position",
    ),
    timeline: q(
      `SELECT t.thread_key, l.position, l.label, l.date, s.session_key, s.hash FROM cm_timeline l JOIN cm_threads t ON t.id = l.thread_id
       JOIN cm_sessions s ON s.id = l.session_id WHERE t.dataset_id = ? ORDER BY t.position, l.position`,
    ),
    turns: q(
      `SELECT s.session_key, s.hash, u.position, u.speaker, u.text, u.dia_id, u.has_answer, u.extra FROM cm_turns u
       JOIN cm_sessions s ON s.id = u.session_id WHERE s.dataset_id = ? ORDER BY s.session_key, s.hash, u.position`,
    ),
    qa: q(
      `SELECT t.thread_key, q.item_key, q.position, q.question, q.answer, q.category, q.question_type, q.evidence, q.adversarial_answer, q.question_date, q.extra
       FROM cm_qa q JOIN cm_threads t ON t.id = q.thread_id WHERE q.dataset_id = ? ORDER BY q.item_key`,
    ),
    sessions: (db.$client.prepare("SELECT count(*) AS n FROM cm_sessions WHERE dataset_id = ?").get(datasetId) as { n: number }).n,
  };
}

const scoresOf = (db: Db, experimentId: number) =>
  db.$client
    .prepare(
      `SELECT j.method, j.item_key, j.output, s.scorer, s."values" FROM jobs j LEFT JOIN job_scores s ON s.job_id = j.id
       WHERE j.experiment_id = ? ORDER BY j.method, j.item_key, s.scorer`,
    )
    .all(experimentId);

describe("bundles --with-data of LoCoMo and LongMemEval runs", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cm-bundle-"));
  const src = tempDb();
  let fake: FakeOpenAI;
  const runs: Record<string, { id: number; datasetId: number; file: string }> = {};

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", JUDGE: "judge-model", EMBEDDING: "embed-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const sets = {
      locomo: (await importLocomo(src.db, { paths: [LOCOMO_DEMO], name: "loc" })).datasetId,
      longmemeval: (await importLongMemEval(src.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" })).datasetId,
    };
    for (const [preset, datasetId] of Object.entries(sets)) {
      const config = applyPreset(preset, { methods: [{ name: "vanilla" }, { name: "session-rag" }] });
      const { id } = createExperiment(src.db, { name: preset, datasetId, config, knownMethod: knownMethod() });
      const deps = bindDeps(src.db, { client: ModelClient.create(src.db, { retryBaseMs: 5 }) });
      expect(await runExperiment(src.db, id, deps, { concurrency: 4 })).toBe("done");
      const file = path.join(dir, `${preset}.palbundle`);
      exportBundle(src.db, id, file, { withData: true });
      runs[preset] = { id, datasetId, file };
    }
  }, 300_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    src.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(["locomo", "longmemeval"])("%s: the rows travel and import into a database without the data set, scores unchanged", (preset) => {
    const r = runs[preset];
    const dst = tempDb();
    try {
      const got = importBundle(dst.db, r.file);
      expect(got.datasetFromBundle).toBe(true);
      const a = contentOf(src.db, r.datasetId);
      const b = contentOf(dst.db, got.datasetId);
      expect(b).toEqual(a);
      expect(b.qa.length).toBeGreaterThan(0);
      expect(b.turns.length).toBeGreaterThan(0);
      // Each session once, however many timelines hold it (LongMemEval's haystacks share sessions).
      expect(b.sessions).toBe(
        new Set(a.timeline.map((l) => `${(l as { session_key: string }).session_key}|${(l as { hash: string }).hash}`)).size,
      );
      if (preset === "longmemeval") expect(b.sessions).toBeLessThan(a.timeline.length);
      expect(scoresOf(dst.db, got.experimentId)).toEqual(scoresOf(src.db, r.id));
    } finally {
      dst.cleanup();
    }
  });

  it("a second import beside the first keeps both data sets apart (ids moved past the target's own)", () => {
    const dst = tempDb();
    try {
      const one = importBundle(dst.db, runs.locomo.file);
      const two = importBundle(dst.db, runs.longmemeval.file);
      expect(two.datasetId).not.toBe(one.datasetId);
      expect(contentOf(dst.db, one.datasetId)).toEqual(contentOf(src.db, runs.locomo.datasetId));
      expect(contentOf(dst.db, two.datasetId)).toEqual(contentOf(src.db, runs.longmemeval.datasetId));
    } finally {
      dst.cleanup();
    }
  });

  it("cm_ rows are read as data: a wrong type, text that is not JSON, an orphan row, each refused naming where", () => {
    const dst = tempDb();
    try {
      const before = rowCounts(dst.db);
      const badType = editedCopy(runs.longmemeval.file, "bad-type.palbundle", (c) =>
        c.exec("UPDATE cm_turns SET position = 'first' WHERE id = (SELECT min(id) FROM cm_turns)"),
      );
      expect(() => importBundle(dst.db, badType)).toThrow(/bad-type\.palbundle: table cm_turns, row id \d+, column position: "first"/);
      const badJson = editedCopy(runs.locomo.file, "bad-json.palbundle", (c) =>
        c.exec("UPDATE cm_qa SET evidence = '[D1:1' WHERE id = (SELECT min(id) FROM cm_qa)"),
      );
      expect(() => importBundle(dst.db, badJson)).toThrow(/bad-json\.palbundle: table cm_qa, row id \d+, column evidence: .* is not JSON/);
      const orphan = editedCopy(runs.longmemeval.file, "orphan.palbundle", (c) =>
        c.exec("UPDATE cm_timeline SET session_id = 999999 WHERE id = (SELECT min(id) FROM cm_timeline)"),
      );
      expect(() => importBundle(dst.db, orphan)).toThrow(/orphan\.palbundle: table cm_timeline: its rows do not fit together/);
      expect(rowCounts(dst.db)).toEqual(before);
      for (const t of CONVMEM_TABLES) expect(before[t]).toBe(0);
    } finally {
      dst.cleanup();
    }
  });
});
