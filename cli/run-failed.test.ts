/**
 * `pal run` whose judge replies are cut off at max_tokens for some items: those items fail (a cut-off
 * reply is never accepted as complete), the ledger counts the cut-off replies, the closing message points
 * to a command that exists, and that command (`pal run --resume ID --retry-failed`) finishes them.
 */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";
import { experimentReplies, firstMessage } from "@/test/experiment-replies";
import type { ChatRequest } from "@/test/fake-openai";

const RUN = oneRun("vanilla", "requirement", "--json");

describe("pal run: replies cut off at max_tokens", () => {
  const s = palRunSetup(1);

  it("fails the items whose judge never completes, counts the cut-off replies, and --resume --retry-failed finishes them", async () => {
    const normal = experimentReplies();
    // A quarter of the judge prompts (by their text, so every try of one item alike) run into the budget.
    const cut = (r: ChatRequest) =>
      firstMessage(r).includes('"score": <score>}') && crypto.createHash("sha256").update(firstMessage(r)).digest()[0] % 4 === 0;
    s.fake.setResponder((r) => (cut(r) ? { content: '{"analysis": "the same words again and again', finishReason: "length" } : normal(r)));
    const r = await runPal(s.dbs[0].file, s.fake.baseURL, RUN, { env: { PAL_LLM_RETRIES: "0" } });
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout);
    expect(out.failed).toBeGreaterThan(0);
    expect(out.ledger.cutOff).toBeGreaterThanOrEqual(out.failed * 3);
    expect(r.stderr).toContain(`(their errors: the experiment page; pal run --resume ${out.experiment} --retry-failed tries them again)`);
    expect(r.stderr).not.toContain("pal export");

    s.fake.setResponder(normal);
    const again = await runPal(s.dbs[0].file, s.fake.baseURL, ["run", "--resume", String(out.experiment), "--retry-failed", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "done", failed: 0 });
  }, 120_000);
});
