/** slot.ts: a call waits for a slot of its role (its view's priority first); a try takes a place under the endpoint's limits. */
import { describe, expect, it } from "vitest";
import { llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { resolveModelConfig } from "./config";
import { inSlot, takePlace } from "./slot";

const env = llmClientPerTest();
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("the slot", () => {
  it("runs no more calls of a role at once than its concurrency, the highest priority first", async () => {
    const core = env.core({ concurrency: { assistant: 1 } });
    const cfg = resolveModelConfig(env.db, "assistant");
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const work = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      await tick();
      running--;
    };
    await Promise.all([
      inSlot(core, viewOf(), "assistant", cfg, work("first")),
      inSlot(core, viewOf({ priority: 0 }), "assistant", cfg, work("low")),
      inSlot(core, viewOf({ priority: 5 }), "assistant", cfg, work("high")),
    ]);
    expect(most).toBe(1);
    expect(order).toEqual(["first", "high", "low"]);
  });

  it("has nothing to wait for without a defined endpoint", async () => {
    const place = await takePlace(env.core(), null);
    expect(() => place.release(10)).not.toThrow();
  });
});
