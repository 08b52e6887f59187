/**
 * Keys out of stored error text (issue 23, item 7): a provider that echoes the Authorization header in
 * its error put the whole key on a campaign page and in its export.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { llmCalls } from "@/db/schema";
import { ModelClient } from "./client";
import { MASK, redactSecrets, rememberSecret } from "./redact";

describe("redactSecrets", () => {
  it("masks remembered keys anywhere, and key-shaped strings it never saw (expected values written by hand)", () => {
    rememberSecret("my-own-proxy-key-123456");
    rememberSecret("short"); // too short to mask safely: ignored
    expect(redactSecrets("bad key my-own-proxy-key-123456 (Authorization header)")).toBe(`bad key ${MASK} (Authorization header)`);
    expect(redactSecrets("Incorrect API key provided: sk-proj-abcDEF123456789.")).toBe(`Incorrect API key provided: sk-${MASK}.`);
    expect(redactSecrets('{"headers":{"Authorization":"Bearer abc.def-123456"}}')).toBe(`{"headers":{"Authorization":"Bearer ${MASK}"}}`);
    expect(redactSecrets("api_key=zzzzzzzzzz&x=1")).toBe(`api_key=${MASK}&x=1`);
    expect(redactSecrets("hf_abcdefghijkl token")).toBe(`hf_${MASK} token`);
    expect(redactSecrets("short sk-1 and a task-force plan")).toBe("short sk-1 and a task-force plan");
  });
});

describe("an endpoint that echoes the key in its error", () => {
  let fake: FakeOpenAI;
  let t: ReturnType<typeof tempDb>;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    t = tempDb();
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "gw-1f2e3d4c5b6a7980");
    vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("is recorded in the ledger and thrown with the key masked", async () => {
    fake.setFault(() => ({
      kind: "status",
      status: 403,
      message: "denied for header Authorization: Bearer gw-1f2e3d4c5b6a7980 (key gw-1f2e3d4c5b6a7980)",
    }));
    const c = ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 400 });
    const e = await c
      .chat({ role: "judge", messages: [{ role: "user", content: "hi" }], schema: z.object({ a: z.string() }), purpose: "test.mask" })
      .catch((x: Error) => x);
    expect(String((e as Error).message)).not.toContain("gw-1f2e3d4c5b6a7980");
    expect(String((e as Error).message)).toContain(MASK);
    const rows = t.db.select().from(llmCalls).all();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.error ?? "").not.toContain("gw-1f2e3d4c5b6a7980");
      expect(r.error ?? "").toContain(MASK);
    }
  });
});
