/**
 * Issue 40 items 10-14, against real runs (the fake OpenAI server over HTTP, real SQLite, the mini PAL-Set and
 * the HiCUPID demo set): the audit compares the requests with the preset and lists an intended deviation (a
 * --config override of the assistant temperature) apart from unintended mismatches; a parameter a role's
 * settings add (presence_penalty) is recorded in the ledger, the run record and the run card, and flagged;
 * the presets send the public code's budgets and keep a cut-off reply as returned (the re-ask is a named
 * option, a deviation); requests and cache hits are counted apart; Mem-PAL's top-3 is checked; a dialogue
 * run on a data set without profile files warns, and its simulator gets no empty blocks.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { FIXTURE_JSONL, LONGMEMEVAL_DEMO, PALSET_MINI_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { ModelClient } from "@/lib/llm/client";
import { saveModelSetting } from "@/lib/llm/config";
import { runCardOfExperiment } from "@/lib/bundles/run-card";
import { simulatorMessages } from "@/lib/tasks/dialogue/prompts";
import { bindDeps } from "./deps";
import { knownMethod } from "./method-choices";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { applyPreset } from "./presets";
import { readRunRecord } from "./run-record";
import { dryRun } from "./dry-run";
import { auditLines, auditText, protocolAudit } from "./protocol-audit";
import { experimentPaperTables } from "./paper-table";

const chat = (r: ChatRequest) => r.messages.map((m) => String(m.content ?? "")).join("\n");

describe("the protocol audit compares with the paper (issue 40)", () => {
  let fake: FakeOpenAI;
  let t: ReturnType<typeof tempDb>;
  let full: number;
  let bare: number;
  let hicupid: number;
  let lme: number;
  /** Answers asked with 200 tokens are cut off at their budget (finish_reason "length") while set. */
  let cutAnswers = false;

  async function run(name: string, datasetId: number, config: Record<string, unknown>) {
    const id = createExperiment(t.db, { name, datasetId, config, knownMethod: knownMethod() }).id;
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    const first = fake.chatRequests.length;
    const status = await runExperiment(t.db, id, deps, { concurrency: 8 });
    const why = t.db.$client.prepare("SELECT error FROM experiments WHERE id = ?").get(id) as { error: string | null };
    expect(status, why.error ?? "").toBe("done");
    return { id, sent: fake.chatRequests.slice(first) };
  }
  const memPal = (over: Record<string, unknown>) =>
    applyPreset("mem-pal", {
      methods: [{ name: "vanilla" }, { name: "turn-rag" }],
      tasks: ["requirement"],
      users: ["0000"],
      repeats: 1,
      ...over,
    });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder((req) => {
      const r = protocolResponder(req);
      // An answer asked with HiCUPID's 200 tokens ends at its budget; a re-ask with more is answered in full.
      const budget = req.max_tokens ?? req.max_completion_tokens;
      return cutAnswers && typeof r === "string" && req.model === "assistant-model" && budget === 200
        ? { content: r, finishReason: "length" }
        : r;
    });
    t = tempDb();
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({
      ASSISTANT: "assistant-model",
      USER_SIMULATOR: "sim-model",
      JUDGE: "judge-model",
      EMBEDDING: "embed-model",
    }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    full = (await importPalset(t.db, { paths: [PALSET_MINI_EN], name: "mini", lang: "en" })).datasetId;
    // The same users without the per-user profile files (background, situation, requirement framework).
    bare = (await importPalset(t.db, { paths: [path.join(PALSET_MINI_EN, "input.json")], name: "mini-bare", lang: "en" })).datasetId;
    hicupid = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
    lme = (await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" })).datasetId;
  }, 120_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("item 10: a --config override of the assistant temperature is an intended deviation, not 'as declared' alone", async () => {
    const { id, sent } = await run("temp", full, memPal({ models: { assistant: { temperature: 1.2 } } }));
    const answers = sent.filter((r) => r.model === "assistant-model");
    expect(answers.length).toBeGreaterThan(0);
    expect(new Set(answers.map((r) => r.temperature))).toEqual(new Set([1.2]));
    const audit = protocolAudit(t.db, id);
    expect(audit.asDeclared).toBe(true); // every call as the run's config asks
    expect(audit.mismatches).toEqual([]);
    expect(audit.preset).toBe("mem-pal");
    expect(audit.deviations).toContainEqual({
      check: "temperature",
      subject: "assistant",
      preset: "0.7",
      declared: "1.2",
      count: expect.any(Number),
      of: expect.any(Number),
    });
    const d = audit.deviations!.find((x) => x.check === "temperature")!;
    expect(d.count).toBe(d.of);
    // The settings no call shows (methods, tasks, users, repeats) are deviations too, said once each.
    expect(audit.deviations!.filter((x) => x.check === "setting").map((x) => x.subject)).toEqual(
      expect.arrayContaining(["methods", "tasks", "users", "repeats"].filter((s) => s !== "repeats")),
    );
    const text = auditText(audit);
    expect(text).toMatch(/^protocol: as declared, \d+ intended deviations from the mem-pal preset/);
    expect(text).toContain("assistant temperature: 1.2 (preset: 0.7), sent on");
    // Item 13: requests sent and cache hits apart, and Mem-PAL's dense top-3 checked.
    expect(audit.requests! + audit.hits!).toBe(audit.calls);
    expect(audit.requests).toBe(
      (
        t.db.$client
          .prepare(
            "SELECT count(*) AS n FROM llm_calls WHERE cache_hit = 0 AND (job_id IN (SELECT id FROM jobs WHERE experiment_id = ?) OR experiment_id = ? OR memory_version_id IN (SELECT version_id FROM experiment_memory_versions WHERE experiment_id = ?))",
          )
          .get(id, id, id) as { n: number }
      ).n,
    );
    expect(text).toMatch(/\(checked \d+ requests sent and \d+ cache hits?\)/);
    expect(audit.checked).toContain("turn-rag retrieval k = 3");
    expect(audit.checked).toContain("turn-rag retrieval dense");
    // Mem-PAL's k: a job holding 4 retrieved turns is flagged.
    const job = t.db.$client
      .prepare("SELECT id, retrieved FROM jobs WHERE experiment_id = ? AND method = 'turn-rag' AND status = 'done' LIMIT 1")
      .get(id) as { id: number; retrieved: string };
    const items = JSON.parse(job.retrieved) as Array<{ kind: string }>;
    expect(items.filter((x) => x.kind === "utterance").length).toBeLessThanOrEqual(3);
    const four = Array.from({ length: 4 }, (_, i) => ({ kind: "utterance", key: `x${i}`, text: "t" }));
    t.db.$client.prepare("UPDATE jobs SET retrieved = ? WHERE id = ?").run(JSON.stringify(four), job.id);
    const k = protocolAudit(t.db, id);
    expect(k.mismatches).toEqual([expect.objectContaining({ check: "retrieval k", subject: "turn-rag", declared: "3", count: 1 })]);
    t.db.$client.prepare("UPDATE jobs SET retrieved = ? WHERE id = ?").run(job.retrieved, job.id);
  }, 300_000);

  it("item 11: presence_penalty from a role's settings is recorded (ledger, run record, run card) and flagged", async () => {
    saveModelSetting(t.db, { name: "assistant", params: { presence_penalty: 0.5, seed: 7 } });
    try {
      const { id, sent } = await run("pp", full, memPal({}));
      const answers = sent.filter((r) => r.model === "assistant-model");
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((r) => r.presence_penalty === 0.5 && r.seed === 7 && r.max_tokens === 8192)).toBe(true);
      const audit = protocolAudit(t.db, id);
      expect(audit.asDeclared).toBe(false);
      const m = audit.mismatches.find((x) => x.check === "parameter presence_penalty");
      expect(m).toMatchObject({ subject: "assistant", declared: "none (the endpoint's default)", found: "0.5 (the role's settings)" });
      expect(m!.count).toBe(m!.of);
      expect(audit.mismatches.find((x) => x.check === "parameter seed")).toMatchObject({ found: "7 (the role's settings)" });
      // nothing else: the budgets are the preset's 8192, the temperature its 0.7
      expect(audit.mismatches.map((x) => x.check).sort()).toEqual(["parameter presence_penalty", "parameter seed"]);
      const record = readRunRecord(t.db, id)!;
      expect(record.roles.find((r) => r.config === "assistant")!.sent[0]).toMatchObject({
        temperature: 0.7,
        maxTokens: 8192,
        other: { presence_penalty: 0.5, seed: 7 },
      });
      const card = runCardOfExperiment(t.db, id, "md");
      expect(card).toContain("| Other parameters |");
      expect(card).toContain('{"presence_penalty":0.5,"seed":7}');
      expect(card).toMatch(/Unintended mismatches \(sent, not asked for\):\n\n- assistant parameter presence_penalty: declared none/);
      expect(card).toMatch(/Intended deviations from the mem-pal preset \(asked for\):/);
    } finally {
      saveModelSetting(t.db, { name: "assistant", params: null });
    }
  }, 300_000);

  it("item 12: HiCUPID answers go out with the public code's 200 tokens and a cut-off answer is kept; the re-ask is a deviation", async () => {
    cutAnswers = true;
    try {
      const kept = await run("hc-kept", hicupid, applyPreset("hicupid", { methods: [{ name: "0-shot" }] }));
      const answers = kept.sent.filter((r) => r.model === "assistant-model");
      expect(new Set(answers.map((r) => r.max_tokens ?? r.max_completion_tokens))).toEqual(new Set([200]));
      expect(new Set(kept.sent.filter((r) => r.model === "judge-model").map((r) => r.max_tokens ?? r.max_completion_tokens))).toEqual(
        new Set([512]),
      );
      const a = protocolAudit(t.db, kept.id);
      expect(a.mismatches).toEqual([]);
      expect(a.keptAsReturned).toBe(answers.length); // each answer once, scored as returned
      expect(a.regrown).toBe(0);
      expect(a.deviations).toEqual([expect.objectContaining({ check: "setting", subject: "methods" })]);

      const reask = await run("hc-reask", hicupid, applyPreset("hicupid", { methods: [{ name: "3-shot" }], cutOffs: "re-ask" }));
      const budgets = reask.sent.filter((r) => r.model === "assistant-model").map((r) => r.max_tokens ?? r.max_completion_tokens);
      expect(budgets).toContain(400); // asked again with twice the budget
      const b = protocolAudit(t.db, reask.id);
      expect(b.mismatches).toEqual([]);
      expect(b.regrown).toBeGreaterThan(0);
      expect(b.deviations).toContainEqual(
        expect.objectContaining({ check: "cut-off replies", subject: "run", preset: "as-returned", declared: "re-ask" }),
      );
    } finally {
      cutAnswers = false;
    }
  }, 300_000);

  it("item 14: a dialogue run without the profile files warns (audit, table caption) and sends no empty blocks", async () => {
    const config = memPal({ methods: [{ name: "vanilla" }, { name: "vanilla-log" }], tasks: ["dialogue"], reference: "vanilla" });
    // At launch: the estimate (New experiment, pal run --dry-run) and the run record carry the warning.
    expect(dryRun(t.db, bare, config).warnings).toEqual([expect.stringMatching(/runs bare/)]);
    expect(dryRun(t.db, full, config).warnings).toEqual([]);
    const { id, sent } = await run("bare", bare, config);
    expect(readRunRecord(t.db, id)!.warnings).toEqual([expect.stringMatching(/runs bare/)]);
    const sim = sent.filter((r) => r.model === "sim-model").map(chat);
    expect(sim.length).toBeGreaterThan(0);
    for (const s of sim) {
      expect(s).not.toContain("# Your background");
      expect(s).not.toContain("# Your personality");
      expect(s).not.toContain("each with its evidence");
    }
    const audit = protocolAudit(t.db, id);
    expect(audit.warnings).toEqual([
      expect.stringMatching(/^the dialogue task's user simulator runs bare \(of \d+ topics?: no background/),
    ]);
    expect(auditLines(audit).some((l) => l.startsWith("  warning: the dialogue task's user simulator runs bare"))).toBe(true);
    const notes = experimentPaperTables(t.db, id)
      .tables.flatMap((x) => x.notes)
      .join(" ");
    expect(notes).toContain("Warning: the dialogue task's user simulator runs bare");
    // On the data set with its profile files: no warning, and the blocks are there.
    const ok = await run("full-dialogue", full, memPal({ methods: [{ name: "vanilla" }], tasks: ["dialogue"] }));
    expect(protocolAudit(t.db, ok.id).warnings).toEqual([]);
    expect(ok.sent.filter((r) => r.model === "sim-model").map(chat)[0]).toContain("# Your background");
  }, 300_000);

  it("issue 42: LongMemEval answers carry run_generation.py's budget (800) in its prompt shape; another answerTokens is a deviation", async () => {
    const answers = (sent: ChatRequest[]) => sent.filter((q) => chat(q).includes("# Current date"));
    const asPreset = await run("lme-preset", lme, applyPreset("longmemeval", { methods: [{ name: "vanilla" }, { name: "turn-rag" }] }));
    const a = answers(asPreset.sent);
    expect(a.length).toBeGreaterThan(0);
    for (const q of a) {
      expect([q.max_tokens ?? q.max_completion_tokens, q.temperature, q.messages.length, q.messages[0].role]).toEqual([800, 0, 1, "user"]);
      // The history first, then the question's date, then the question (run_generation.py's order).
      const body = chat(q);
      expect(body.indexOf("# What you know about the user")).toBeGreaterThan(0);
      expect(body.indexOf("# Current date")).toBeGreaterThan(body.indexOf("# What you know about the user"));
      expect(body.indexOf("# Question")).toBeGreaterThan(body.indexOf("# Current date"));
    }
    const audit = protocolAudit(t.db, asPreset.id);
    expect(audit.mismatches).toEqual([]);
    // Only the subset of methods differs from the preset.
    expect((audit.deviations ?? []).map((d) => d.subject)).toEqual(["methods"]);
    expect(audit.checked).toContain("assistant output budget the project's budget per step, answers 800");

    // A method not run above (the cache key leaves the budget out: the same prompt would be a hit).
    const shorter = await run("lme-500", lme, applyPreset("longmemeval", { methods: [{ name: "session-rag" }], answerTokens: 500 }));
    expect(answers(shorter.sent).length).toBeGreaterThan(0);
    for (const q of answers(shorter.sent)) expect(q.max_tokens ?? q.max_completion_tokens).toBe(500);
    const a2 = protocolAudit(t.db, shorter.id);
    expect(a2.mismatches).toEqual([]);
    expect((a2.deviations ?? []).filter((d) => d.check !== "setting")).toEqual([
      expect.objectContaining({
        check: "output budget",
        subject: "assistant",
        preset: "800",
        declared: "500",
        count: answers(shorter.sent).length,
      }),
    ]);
  }, 300_000);

  it("item 14: the simulator prompt leaves out what the data set cannot fill", () => {
    const topic = { userQuery: "q", implicitNeeds: ["a need"], requirement: "r", generalPreference: null, solutions: { pos: [], neg: [] } };
    const profile = { background: "", personality: "", situation: "" };
    const [m] = simulatorMessages({ profile, topic, dialogue: [], turn: 1, action: "requirement_confirmation" }, "en");
    expect(m.content).not.toMatch(/# Your (background|personality|recent situation)/);
    expect(m.content).not.toContain("each with its evidence");
    const withEvidence = { ...topic, implicitNeeds: [{ need: "a need", evidence: "because" }] };
    const [n] = simulatorMessages(
      { profile: { ...profile, background: "b" }, topic: withEvidence, dialogue: [], turn: 1, action: "requirement_confirmation" },
      "en",
    );
    expect(n.content).toContain("# Your background");
    expect(n.content).toContain("each with its evidence");
  });
});
