/**
 * An LLM judge run over a pairwise campaign: what the run adds over the model calls themselves, and what
 * resuming and re-judging cost.
 *
 * Against the fake OpenAI-compatible server (TEST DOUBLE, 20 ms per reply), a campaign of 40 pairwise
 * dialogue items (480 judge calls: 2 dimensions × 6) is judged with 4 calls in flight. Measured in the
 * same run: the bare SDK sending the same 480 prompts (the floor), the judge run on an empty cache, the
 * same run again (resume: everything judged, nothing sent) and a run with another tie margin (new
 * verdicts, every call from the cache).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import pLimit from "p-limit";
import { openDb } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { runLlmJudge } from "@/lib/annotation/llm-judge";
import { startFakeOpenAI, type ChatRequest } from "@/test/fake-openai";

const ITEMS = 40;
const CONCURRENCY = 4;

function line(i: number, a: string, b: string) {
  const d = (who: string) => [
    { role: "user", content: `Topic ${i}: help me plan something.` },
    { role: "assistant", content: `${who} suggests option ${i} with some detail ${"x".repeat(i * 5)}.` },
  ];
  return JSON.stringify({
    id: `t-${i}`,
    topic: `Topic ${i}`,
    user_info: { background: `user ${i}`, preferences: ["quiet"] },
    a: { system: a, output: d(a) },
    b: { system: b, output: d(b) },
  });
}

export default async function bench() {
  const reply = (r: ChatRequest) => {
    const first = String(r.messages[0].content).split("# Dialogue with assistant-2")[0];
    const s = first.includes("sys-a suggests") ? [8, 6] : [6, 8];
    return JSON.stringify({
      analysis: { "assistant-1": "a", "assistant-2": "b", overall: "c" },
      scores: { "assistant-1": s[0], "assistant-2": s[1] },
    });
  };
  const fake = await startFakeOpenAI({ latencyMs: 20, respond: reply });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-judge-"));
  process.env.OPENAI_BASE_URL = fake.baseURL;
  process.env.OPENAI_API_KEY = "bench";
  process.env.PAL_MODEL_JUDGE = "fake-judge";
  const db = openDb(path.join(dir, "bench.db"));
  try {
    const r = await createUser(db, { email: "r@bench.io", role: "researcher", password: "password-123" });
    const a = await createUser(db, { email: "a@bench.io", role: "annotator", password: "password-123" });
    const text = Array.from({ length: ITEMS }, (_, i) => line(i, "sys-a", "sys-b")).join("\n");
    const c = createCampaign(
      db,
      { name: "bench", kind: "pairwise-dialogue", perItem: 1, annotatorIds: [a.id], source: { kind: "upload", fileName: "b.jsonl", text } },
      r.id,
    );
    const client = () => ModelClient.create(db, { concurrency: { judge: CONCURRENCY } });

    let t = performance.now();
    const cold = await runLlmJudge(db, client(), c.id, {}, r.id);
    const coldMs = performance.now() - t;
    const prompts = fake.chatRequests
      .slice(0, cold.requests)
      .map((q) => q.messages as OpenAI.Chat.Completions.ChatCompletionMessageParam[]);

    const sdk = new OpenAI({ baseURL: fake.baseURL, apiKey: "bench", maxRetries: 0 });
    const limit = pLimit(CONCURRENCY);
    t = performance.now();
    await Promise.all(prompts.map((m) => limit(() => sdk.chat.completions.create({ model: "fake-judge", messages: m }))));
    const rawMs = performance.now() - t;

    t = performance.now();
    const resumed = await runLlmJudge(db, client(), c.id, {}, r.id);
    const resumeMs = performance.now() - t;
    t = performance.now();
    const rejudged = await runLlmJudge(db, client(), c.id, { tieMargin: 1 }, r.id);
    const rejudgeMs = performance.now() - t;
    if (resumed.requests !== 0 || rejudged.requests !== 0)
      throw new Error(`re-runs sent requests: ${resumed.requests}, ${rejudged.requests}`);

    console.log(`${ITEMS} pairwise items, ${cold.requests} judge calls, ${CONCURRENCY} in flight, 20 ms replies`);
    console.log(`bare SDK, same prompts:          ${rawMs.toFixed(0)} ms`);
    console.log(`judge run, empty cache:          ${coldMs.toFixed(0)} ms  (${(coldMs / rawMs).toFixed(2)}x the bare SDK's time)`);
    console.log(`same run again (resume):         ${resumeMs.toFixed(0)} ms  (${resumed.newlyJudged} new verdicts, 0 requests)`);
    console.log(
      `another tie margin (all cached): ${rejudgeMs.toFixed(0)} ms  (${rejudged.newlyJudged} new verdicts, 0 requests; ${(coldMs / rejudgeMs).toFixed(1)}x faster than the first run)`,
    );
  } finally {
    db.$client.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
