import { and, asc, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memoryEntries } from "@/db/schema";

/** One stored memory entry as methods see it. */
export type MemoryEntry<C = unknown> = {
  id: number;
  kind: string;
  key: string;
  content: C;
  validFromSeq: number;
  validToSeq: number | null;
};

/**
 * Read access to a memory as it stands at one point `at`: the entries with
 * valid_from_seq <= at and (valid_to_seq is null or valid_to_seq > at). `at` = j is what an answer in
 * session j may use (see lib/memory/README.md for how build phases map to it).
 */
export class MemoryReader {
  constructor(
    protected readonly db: Db,
    readonly versionId: number,
    readonly at: number,
  ) {}

  protected visible() {
    return and(
      eq(memoryEntries.versionId, this.versionId),
      lte(memoryEntries.validFromSeq, this.at),
      or(isNull(memoryEntries.validToSeq), gt(memoryEntries.validToSeq, this.at)),
    );
  }

  /** Entries of one kind (or all kinds), oldest first: by valid_from_seq, then creation. */
  list<C = unknown>(kind?: string): MemoryEntry<C>[] {
    const where = kind === undefined ? this.visible() : and(this.visible(), eq(memoryEntries.kind, kind));
    return this.db
      .select({
        id: memoryEntries.id,
        kind: memoryEntries.kind,
        key: memoryEntries.key,
        content: memoryEntries.content,
        validFromSeq: memoryEntries.validFromSeq,
        validToSeq: memoryEntries.validToSeq,
      })
      .from(memoryEntries)
      .where(where)
      .orderBy(asc(memoryEntries.validFromSeq), asc(memoryEntries.id))
      .all() as MemoryEntry<C>[];
  }

  get<C = unknown>(kind: string, key: string): MemoryEntry<C> | null {
    return (
      (this.db
        .select({
          id: memoryEntries.id,
          kind: memoryEntries.kind,
          key: memoryEntries.key,
          content: memoryEntries.content,
          validFromSeq: memoryEntries.validFromSeq,
          validToSeq: memoryEntries.validToSeq,
        })
        .from(memoryEntries)
        .where(and(this.visible(), eq(memoryEntries.kind, kind), eq(memoryEntries.key, key)))
        .get() as MemoryEntry<C> | undefined) ?? null
    );
  }

  count(kind?: string): number {
    return this.list(kind).length;
  }
}

/**
 * Write access for one build phase of one session step: entries put here become visible from
 * `at` on; entries expired here stop being visible at `at`. An entry is stored once for its whole
 * span; nothing is copied per session.
 */
export class MemoryWriter extends MemoryReader {
  constructor(
    db: Db,
    versionId: number,
    at: number,
    readonly stepId: number,
  ) {
    super(db, versionId, at);
  }

  private readonly calls: string[] = [];

  /**
   * Notes a model call made in this phase. Every entry put afterwards (without explicit call keys)
   * records the calls noted so far, so any method's entries link to the ledger rows that produced
   * them without each method threading cache keys through its own data.
   */
  noteCall(cacheKey: string): void {
    if (!this.calls.includes(cacheKey)) this.calls.push(cacheKey);
  }

  /** The calls noted in this phase so far. */
  notedCalls(): string[] {
    return [...this.calls];
  }

  /**
   * Adds an entry, or replaces the visible entry with the same kind and key. `callKeys` names the
   * calls that produced it; by default the calls noted in this phase. Stored sorted: concurrent
   * calls finish in any order, and a rebuild must store the same memory.
   */
  put<C>(kind: string, key: string, content: C, callKeys: readonly string[] = this.calls): MemoryEntry<C> {
    return this.db.transaction(() => {
      this.expire(kind, key);
      const row = this.db
        .insert(memoryEntries)
        .values({
          versionId: this.versionId,
          stepId: this.stepId,
          kind,
          key,
          content,
          validFromSeq: this.at,
          callKeys: [...callKeys].sort(),
        })
        .returning()
        .get();
      return { id: row.id, kind, key, content, validFromSeq: this.at, validToSeq: null };
    });
  }

  /** Adds many entries in one transaction (e.g. every log of a session). */
  putMany<C>(kind: string, items: Array<{ key: string; content: C; callKeys?: readonly string[] }>): void {
    this.db.transaction(() => {
      for (const it of items) this.put(kind, it.key, it.content, it.callKeys);
    });
  }

  /** Ends the visibility of an entry (no-op when none is visible). Returns whether one was. */
  expire(kind: string, key: string): boolean {
    const e = this.get(kind, key);
    if (!e) return false;
    const row = this.db.select({ stepId: memoryEntries.stepId }).from(memoryEntries).where(eq(memoryEntries.id, e.id)).get();
    if (row?.stepId === this.stepId && e.validFromSeq === this.at) {
      // Written and replaced within the same phase: nobody could ever see it.
      this.db.delete(memoryEntries).where(eq(memoryEntries.id, e.id)).run();
    } else {
      this.db.update(memoryEntries).set({ validToSeq: this.at, expiredByStepId: this.stepId }).where(eq(memoryEntries.id, e.id)).run();
    }
    return true;
  }
}
