import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { GroupCommit, ledgerPage, listCalls, otherParams, recordCall, sentParams, summarizeCalls, type LedgerRow } from "./ledger";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

const row = (purpose: string): LedgerRow => ({
  origin: {},
  purpose,
  role: "assistant",
  config: "assistant",
  endpoint: "http://x/v1",
  model: "m",
  cacheKey: purpose,
  cacheHit: false,
  replicate: 0,
  attempt: 1,
  status: "ok",
});

/** What another connection (another process after a crash) sees committed. */
function committed(file: string): string[] {
  const other = new Database(file, { readonly: true });
  try {
    return (other.prepare("SELECT purpose FROM llm_calls ORDER BY id").all() as Array<{ purpose: string }>).map((r) => r.purpose);
  } finally {
    other.close();
  }
}

describe("GroupCommit", () => {
  it("commits the writes of one event-loop turn in one transaction, and each resolves only once it is committed", async () => {
    let transactions = 0;
    const begin = t.db.$client.transaction.bind(t.db.$client);
    t.db.$client.transaction = ((fn: (...a: unknown[]) => unknown) => {
      const tx = begin(fn);
      return Object.assign((...a: unknown[]) => (transactions++, tx(...a)), tx);
    }) as typeof t.db.$client.transaction;
    const commits = new GroupCommit(t.db);

    const seenAtResolve: string[][] = [];
    const writes = ["a", "b", "c"].map((p) =>
      commits.write(() => recordCall(t.db, row(p))).then(() => seenAtResolve.push(committed(t.file))),
    );
    expect(committed(t.file)).toEqual([]); // queued, not yet written
    await Promise.all(writes);
    expect(transactions).toBe(1);
    for (const seen of seenAtResolve) expect(seen).toEqual(["a", "b", "c"]);

    await commits.write(() => recordCall(t.db, row("d")));
    expect(transactions).toBe(2);
    expect(committed(t.file)).toEqual(["a", "b", "c", "d"]);
  });

  it("a write that fails fails its own call only; the others of its turn are committed", async () => {
    const commits = new GroupCommit(t.db);
    const results = await Promise.allSettled([
      commits.write(() => recordCall(t.db, row("a"))),
      commits.write(() => {
        recordCall(t.db, row("half-written"));
        throw new Error("disk full");
      }),
      commits.write(() => recordCall(t.db, row("c"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe("disk full");
    expect(committed(t.file)).toEqual(["a", "c"]);
  });
});

describe("ledger pages", () => {
  it("pages an origin's calls, all or one status, from its summary; out-of-range pages are clamped", () => {
    const origin = { memoryVersionId: 7 };
    t.db.$client.pragma("foreign_keys = OFF"); // ledger rows alone, without the memory version they would belong to
    for (let i = 0; i < 250; i++) recordCall(t.db, { ...row(`p${i}`), origin, status: i % 10 === 0 ? "failed" : "ok" });
    const summary = summarizeCalls(t.db, origin);
    const page = (want: { page?: string | number; status?: string | null }) => ledgerPage(summary, want);

    expect(page({})).toEqual({ page: 1, pages: 3, total: 250, offset: 0, limit: 100, status: null });
    const third = page({ page: "3" });
    expect(third).toMatchObject({ page: 3, offset: 200 });
    const calls = listCalls(t.db, origin, { limit: third.limit, offset: third.offset });
    expect(calls.map((c) => c.purpose)).toEqual(Array.from({ length: 50 }, (_, i) => `p${200 + i}`));

    const failed = page({ status: "failed" });
    expect(failed).toMatchObject({ total: 25, pages: 1, status: "failed" });
    expect(listCalls(t.db, origin, { limit: failed.limit, status: "failed" })).toHaveLength(25);

    expect(page({ page: "99" }).page).toBe(3);
    expect(page({ page: "-2" }).page).toBe(1);
    expect(page({ page: "x" }).page).toBe(1);
    expect(page({ status: "bogus" })).toMatchObject({ status: null, total: 250 });
    expect(ledgerPage(summarizeCalls(t.db, { memoryVersionId: 8 }), {})).toMatchObject({ page: 1, pages: 1, total: 0 });
  });
});

describe("sentParams (issue 40 item 11)", () => {
  it("records every parameter sent: the ones with a column, and the rest as one sorted JSON text", () => {
    const p = { temperature: 0.7, top_p: 0.9, max_completion_tokens: 200, model: "m", seed: 7, presence_penalty: 0.5, stop: ["\n"] };
    expect(sentParams(p, "off")).toEqual({
      temperature: 0.7,
      topP: 0.9,
      maxTokens: 200,
      jsonMode: "off",
      other: '{"presence_penalty":0.5,"seed":7,"stop":["\\n"]}',
    });
    expect(otherParams({ temperature: 0, max_tokens: 10 })).toBeNull();
  });
});
