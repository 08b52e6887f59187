/** ledger-write.ts: every row a view's call leaves, shown to its spend guard; an accepted reply's row and cache entry commit together. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { llmCache } from "@/db/schema";
import { llmClientPerTest, viewOf } from "@/test/llm-client-env";
import type { LedgerRow } from "./ledger";
import { commitReply, recordRow, storeNow } from "./ledger-write";
import { SpendGuard } from "./spend-guard";

const env = llmClientPerTest();
const row = (o: Partial<LedgerRow> = {}): LedgerRow => ({
  origin: {},
  purpose: "t",
  role: "assistant",
  config: "assistant",
  endpoint: "http://x/v1",
  model: "m",
  cacheKey: "k",
  replicate: 0,
  cacheHit: false,
  attempt: 1,
  status: "ok",
  ...o,
});
const entry = {
  key: "k",
  endpoint: "http://x/v1",
  model: "m",
  request: {},
  response: "r",
  usage: { promptTokens: 1, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 },
};

describe("the ledger write", () => {
  it("writes a row at once and shows it to the view's spend guard", () => {
    const trips: string[] = [];
    const guard = new SpendGuard({ probe: 1, onTrip: (r) => trips.push(r) });
    recordRow(env.core(), viewOf({ guard }), row({ status: "failed", error: "HTTP 500" }));
    expect(env.ledger().map((r) => r.status)).toEqual(["failed"]);
    expect(trips).toHaveLength(1);
  });

  it("commits an accepted reply's row and cache entry together, resolving once both are in", async () => {
    const core = env.core();
    const other = new Database(env.file, { readonly: true });
    try {
      const count = (t: string) => (other.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      const done = commitReply(core, viewOf(), row({ promptTokens: 1, completionTokens: 2 }), entry);
      expect([count("llm_calls"), count("llm_cache")]).toEqual([0, 0]);
      await done;
      expect([count("llm_calls"), count("llm_cache")]).toEqual([1, 1]);
    } finally {
      other.close();
    }
  });

  it("writes a batch reply's row and entry at once, and neither when the write fails", () => {
    const core = env.core();
    storeNow(core, viewOf(), row(), entry);
    expect([env.ledger().length, env.db.select().from(llmCache).all().length]).toEqual([1, 1]);
    // A row the table refuses (no status): the entry is not left behind without it.
    expect(() => storeNow(core, viewOf(), row({ status: null as never }), { ...entry, key: "k2" })).toThrow();
    expect([env.ledger().length, env.db.select().from(llmCache).all().length]).toEqual([1, 1]);
  });
});
