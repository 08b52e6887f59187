/**
 * Issue 42 item 6: the compare view's evidence panel on real runs of the demo LoCoMo and LongMemEval files (the
 * fake server over HTTP, real SQLite): the evidence turns are the item's evidence dia_ids (LoCoMo) or the
 * has_answer turns of its answer sessions (LongMemEval); a turn is tagged with a method exactly when that
 * method's stored retrieved context held it (LoCoMo: the evidence scorer's stored context ids); methods that keep
 * notes, not turns, tag nothing; only the evidence sessions are read.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { LOCOMO_DEMO, LONGMEMEVAL_DEMO } from "@/test/fixtures";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { applyPreset } from "@/lib/experiments/presets";
import { itemView } from "@/lib/experiments/item-view";
import { itemEvidence } from "@/lib/experiments/item-evidence";
import { exportFigure } from "@/lib/experiments/figure4";
import { loadConvItem } from "./items";

describe("the evidence beside two methods' answers", () => {
  const t = tempDb();
  let fake: FakeOpenAI;
  const exp: Record<string, { id: number; datasetId: number }> = {};
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", JUDGE: "judge-model", EMBEDDING: "embed-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const sets = {
      locomo: (await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc" })).datasetId,
      longmemeval: (await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" })).datasetId,
    };
    for (const [preset, datasetId] of Object.entries(sets)) {
      // k = 1: a retriever holds some evidence turns and misses others.
      const config = applyPreset(preset, {
        methods: [{ name: "turn-rag", options: { k: 1 } }, { name: "session-rag", options: { k: 1 } }, { name: "vanilla" }],
      });
      const { id } = createExperiment(t.db, { name: preset, datasetId, config, knownMethod: knownMethod() });
      const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
      expect(await runExperiment(t.db, id, deps, { concurrency: 4 })).toBe("done");
      exp[preset] = { id, datasetId };
    }
  }, 300_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  const items = (task: string) =>
    (
      t.db.$client.prepare("SELECT DISTINCT item_key AS k FROM jobs WHERE experiment_id = ? ORDER BY item_key").all(exp[task].id) as Array<{
        k: string;
      }>
    ).map((r) => r.k);

  it("LoCoMo: evidence turns are the item's dia_ids; a method's tag equals its stored evidence context", () => {
    let tagged = 0;
    let missed = 0;
    for (const key of items("locomo")) {
      const it = loadConvItem(t.db, exp.locomo.datasetId, key);
      const view = itemView(t.db, exp.locomo.id, "locomo", key, { methods: ["turn-rag", "session-rag", "vanilla"] });
      const ev = itemEvidence(t.db, view)!;
      const turns = ev.sessions.flatMap((s) => s.turns);
      expect(
        turns
          .filter((u) => u.evidence)
          .map((u) => u.diaId)
          .sort(),
      ).toEqual([...it.evidence].sort());
      expect(ev.retrievers.sort()).toEqual(["session-rag", "turn-rag"]);
      for (const m of ["turn-rag", "session-rag"]) {
        const detail = t.db.$client
          .prepare(
            `SELECT s.detail FROM job_scores s JOIN jobs j ON j.id = s.job_id WHERE j.experiment_id = ? AND j.method = ? AND j.item_key = ? AND s.scorer = 'evidence'`,
          )
          .get(exp.locomo.id, m, key) as { detail: string };
        const context = new Set((JSON.parse(detail.detail) as { context: string[] }).context);
        for (const u of turns) {
          expect(u.retrievedBy.includes(m), `${key} ${u.diaId} ${m}`).toBe(u.diaId !== null && context.has(u.diaId));
          if (u.evidence && u.retrievedBy.includes(m)) tagged++;
          else if (u.evidence) missed++;
        }
      }
      expect(turns.some((u) => u.retrievedBy.includes("vanilla"))).toBe(false);
      // Only sessions holding evidence are read.
      for (const s of ev.sessions) expect(s.turns.some((u) => u.evidence)).toBe(true);
    }
    // Both outcomes occur on the demo run: the panel shows hits and misses.
    expect(tagged).toBeGreaterThan(0);
    expect(missed).toBeGreaterThan(0);
  });

  it("LongMemEval: the answer sessions with their has_answer turns; session-rag's tag is its retrieved session", () => {
    let seen = 0;
    for (const key of items("longmemeval")) {
      const it = loadConvItem(t.db, exp.longmemeval.datasetId, key);
      const view = itemView(t.db, exp.longmemeval.id, "longmemeval", key, { methods: ["turn-rag", "session-rag"] });
      const ev = itemEvidence(t.db, view)!;
      expect(ev.sessions.map((s) => s.label).sort()).toEqual([...it.evidence].sort());
      const hasAnswer = t.db.$client
        .prepare(
          `SELECT u.text FROM cm_turns u JOIN cm_timeline tl ON tl.session_id = u.session_id JOIN cm_threads th ON th.id = tl.thread_id
           WHERE th.dataset_id = ? AND th.thread_key = ? AND u.has_answer = 1 ORDER BY tl.position, u.position`,
        )
        .all(exp.longmemeval.datasetId, it.threadKey) as Array<{ text: string }>;
      expect(ev.sessions.flatMap((s) => s.turns.filter((u) => u.evidence).map((u) => u.text))).toEqual(hasAnswer.map((r) => r.text));
      const job = t.db.$client
        .prepare("SELECT retrieved FROM jobs WHERE experiment_id = ? AND method = 'session-rag' AND item_key = ?")
        .get(exp.longmemeval.id, key) as { retrieved: string | null };
      const labels = new Set(
        ((job.retrieved ? JSON.parse(job.retrieved) : []) as Array<{ kind: string; key: string }>)
          .filter((r) => r.kind === "session")
          .map((r) => r.key),
      );
      for (const s of ev.sessions) for (const u of s.turns) expect(u.retrievedBy.includes("session-rag")).toBe(labels.has(s.label));
      seen += ev.sessions.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("the Figure 4 export of two methods' answers lists the evidence turns and who retrieved each (HTML and SVG)", () => {
    // An item whose evidence spans two sessions.
    const key = items("locomo").find((k) => loadConvItem(t.db, exp.locomo.datasetId, k).evidence.length > 1)!;
    const sp = new URLSearchParams([
      ["task", "locomo"],
      ["item", key],
      ["m", "turn-rag"],
      ["m", "session-rag"],
    ]);
    const view = itemView(t.db, exp.locomo.id, "locomo", key, { methods: ["turn-rag", "session-rag"] });
    const turns = itemEvidence(t.db, view)!.sessions.flatMap((s) => s.turns.filter((u) => u.evidence));
    expect(turns.length).toBe(loadConvItem(t.db, exp.locomo.datasetId, key).evidence.length);
    const html = String(exportFigure(t.db, exp.locomo.id, "figure-html", sp).body);
    const svg = String(exportFigure(t.db, exp.locomo.id, "figure-svg", sp).body);
    const names: Record<string, string> = { "turn-rag": "Turn-level RAG", "session-rag": "Session-level RAG" };
    for (const u of turns) {
      const by = u.retrievedBy.length
        ? `retrieved by ${u.retrievedBy.map((m) => names[m]).join(", ")}`
        : "retrieved by none of these methods";
      expect(html).toContain(`<b>${u.diaId}</b> ${u.speaker}:`);
      expect(html).toMatch(new RegExp(`<b>${u.diaId}</b>[^<]*<span class="by">${by}</span>`));
      expect(svg).toContain(`${u.diaId} ${u.speaker}:`);
    }
    expect(svg).toContain(">Evidence<");
    // The figure is titled by the question.
    expect(html).toContain(`<h1>“${loadConvItem(t.db, exp.locomo.datasetId, key).question.replace(/'/g, "&#39;")}”</h1>`);
    // Without the field, no evidence; and none for a task without evidence.
    sp.set("fields", "memory,scores");
    expect(String(exportFigure(t.db, exp.locomo.id, "figure-html", sp).body)).not.toContain('class="ev"');
  });

  it("is null for the other tasks", () => {
    expect(itemEvidence(t.db, { experimentId: exp.locomo.id, task: "hicupid", itemKey: "x", outputs: [] })).toBeNull();
  });
});
