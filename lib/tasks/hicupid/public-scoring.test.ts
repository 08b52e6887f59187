/**
 * HiCUPID judge replies read as the public scoring script reads them (src/utils/evaluate.py, parse_evaluation):
 * the regular expressions `Better Response:.*(A|B|Tie)` and `Satisfaction:.*(YES|NO)`, case-insensitive,
 * searched anywhere in the reply; no match: Tie (A/B) or NO (schedule), counted as unparsed; never asked
 * again. Expected values read from that behaviour; the run's scores worked out by hand from the slots.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { FIXTURE_JSONL } from "@/test/fixtures";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { jobs } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { abScore, scheduleScore } from "@/lib/metrics";
import { balancedSlots, readAbVerdictPublic, readYesNoPublic } from "@/lib/judges/hicupid";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentResults } from "@/lib/experiments/results";
import { loadHcItem } from "./items";
import { HICUPID_INSTRUCTION } from "./prompts";

describe("the public scripts' reading of a verdict", () => {
  it("finds it anywhere, case-insensitive, the last A/B/Tie on the first line that has the label", () => {
    expect(readAbVerdictPublic("Better Response: A\n1. Personalization: A is better")).toEqual({ verdict: "A", parsed: true });
    expect(readAbVerdictPublic("analysis...\nbetter response: tie")).toEqual({ verdict: "Tie", parsed: true });
    expect(readAbVerdictPublic("Better Response: [B]")).toEqual({ verdict: "B", parsed: true });
    // The greedy `.*` takes the last candidate on the line, letters inside words included (the public quirk):
    // "B (A is too generic)" reads as A, "A, as B's answer is vague" as A from "vague".
    expect(readAbVerdictPublic("Better Response: B (A is too generic)")).toEqual({ verdict: "A", parsed: true });
    expect(readAbVerdictPublic("Better Response: B, it is longer")).toEqual({ verdict: "B", parsed: true });
    expect(readAbVerdictPublic("1. Personalization: A is better.")).toEqual({ verdict: "Tie", parsed: false });
    expect(readYesNoPublic("Satisfaction: YES\n- Personalization: spots the clash")).toEqual({ verdict: "YES", parsed: true });
    expect(readYesNoPublic("satisfaction: no")).toEqual({ verdict: "NO", parsed: true });
    expect(readYesNoPublic("- Personalization: fine")).toEqual({ verdict: "NO", parsed: false });
  });
});

describe("hicupid task with verdicts: public", () => {
  let fake: FakeOpenAI;
  const t = tempDb();
  const body = (r: ChatRequest) => r.messages.map((m) => String(m.content)).join("\n");
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // A/B: the verdict on the first line, analysis after it (the project's reading would ask again);
    // schedule: no verdict at all.
    fake.setResponder((r) => {
      const t = body(r);
      if (t.includes(HICUPID_INSTRUCTION.split("\n")[0])) return "A short answer.";
      if (t.includes("Better Response: <A/B/Tie>")) return "Better Response: A\n1. Personalization: x\n2. Logical Validity: y";
      if (t.includes("Satisfaction: <YES/NO>")) return "1. Personalization: it is fine";
      return "unexpected prompt";
    });
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", JUDGE: "judge-model" })) vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("counts unparsed replies as NO (schedule) and shows their count; one request per verdict", async () => {
    const datasetId = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
    const config = {
      methods: [{ name: "full-history" }],
      tasks: ["hicupid"],
      seed: 3,
      hicupid: { splits: ["test_1", "test_2"], verdicts: "public" },
    };
    const { id } = createExperiment(t.db, { name: "hc", datasetId, config });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, id, deps, { concurrency: 2 })).toBe("done");
    const keys = t.db
      .select()
      .from(jobs)
      .where(eq(jobs.experimentId, id))
      .all()
      .map((j) => j.itemKey);
    const items = keys.map((k) => ({ key: k, ...loadHcItem(t.db, datasetId, k) }));
    const ab = items.filter((i) => i.type !== "schedule");
    const schedule = items.filter((i) => i.type === "schedule");
    expect(schedule.length).toBeGreaterThan(0);
    const slots = balancedSlots(
      ab.map((i) => ({ itemKey: i.key, type: i.type })),
      3,
      0,
      0,
    );
    const m = experimentResults(t.db, id).results.find((r) => r.method === "full-history")!.metrics;
    // Judge says A everywhere: the model wins where its slot was A.
    expect(m.persona).toBe(
      abScore(ab.filter((i) => i.type === "persona").map((i) => ({ verdict: "A", modelSlot: slots.get(i.key)! }))).score,
    );
    expect(m.schedule).toBe(scheduleScore(schedule.map(() => "NO")).score);
    expect(m.unparsed).toBe(schedule.length);
    // No reply was asked again: one judge request per item.
    const judged = fake.chatRequests.filter((r) => r.model === "judge-model");
    expect(judged).toHaveLength(items.length);
    expect(judged.every((r) => r.messages.length === 1)).toBe(true);
  }, 300_000);
});
