import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { GroupCommit, recordCall, type LedgerRow } from "./ledger";

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
