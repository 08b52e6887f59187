import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import { WeightedLru } from "@/lib/lru";

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

  /** Entries of one kind (or all kinds), oldest first: by valid_from_seq, then creation. */
  list<C = unknown>(kind?: string): MemoryEntry<C>[] {
    const rows = () =>
      (kind === undefined
        ? stmt(this.db, `${SELECT} ${VISIBLE} order by valid_from_seq, id`).all(this.versionId, this.at, this.at)
        : stmt(this.db, `${SELECT} ${VISIBLE} and kind = ? order by valid_from_seq, id`).all(
            this.versionId,
            this.at,
            this.at,
            kind,
          )) as Row[];
    return withContents<C>(this.db, rows);
  }

  /**
   * Entries of one kind whose key starts with `prefix` (ending in an ASCII character), oldest first: a
   * range of the (version, kind, key) index, where list(kind) and a filter would read the whole kind.
   */
  listPrefixed<C = unknown>(kind: string, prefix: string): MemoryEntry<C>[] {
    const last = prefix.charCodeAt(prefix.length - 1);
    if (!(last < 0x7f)) throw new Error(`listPrefixed: the prefix must end in an ASCII character, not "${prefix}"`);
    // Under SQLite's binary collation, the keys starting with the prefix are exactly those from the prefix
    // up to (not including) the prefix with its last character the next one.
    const upper = prefix.slice(0, -1) + String.fromCharCode(last + 1);
    return withContents<C>(
      this.db,
      () =>
        stmt(this.db, `${SELECT} ${VISIBLE} and kind = ? and key >= ? and key < ? order by valid_from_seq, id`).all(
          this.versionId,
          this.at,
          this.at,
          kind,
          prefix,
          upper,
        ) as Row[],
    );
  }

  get<C = unknown>(kind: string, key: string): MemoryEntry<C> | null {
    const row = () =>
      stmt(this.db, `${SELECT} ${VISIBLE} and kind = ? and key = ? order by id limit 1`).get(
        this.versionId,
        this.at,
        this.at,
        kind,
        key,
      ) as Row | undefined;
    return (
      withContents<C>(this.db, () => {
        const r = row();
        return r ? [r] : [];
      })[0] ?? null
    );
  }

  count(kind?: string): number {
    return this.list(kind).length;
  }
}

// Hand-written SQL (compiled once per connection): memory is read and written between the chained
// model calls of every build, where drizzle's query building cost more than the queries.
// The content is not selected: it comes from the process's parsed contents (below), read only when missing.
const SELECT = "select id, kind, key, valid_from_seq, valid_to_seq from memory_entries";
const VISIBLE = "where version_id = ? and valid_from_seq <= ? and (valid_to_seq is null or valid_to_seq > ?)";
type Row = { id: number; kind: string; key: string; valid_from_seq: number; valid_to_seq: number | null };

/**
 * Parsed entry contents by entry id, per database. A row's content never changes once written (an entry
 * is replaced by a new row, and ids are AUTOINCREMENT, bundle imports included: never reused), so an id
 * read once is never read or parsed again: builds list their cumulative memory before every step, and
 * that re-parse was the largest part of the pipeline's memory reads (issue 35). Contents are deep-frozen
 * (they are shared by every reader); the bound is in characters of stored JSON.
 */
const CONTENT_CHARS = 64_000_000;
const contents = new WeakMap<Db, WeightedLru<number, unknown>>();

/**
 * The entries of the rows `select` gives, each content from the parsed contents; the contents never read
 * are read in one statement. Should a row have gone in between (a step rolled back by another process),
 * the rows and contents are read again in one read transaction.
 */
function withContents<C>(db: Db, select: () => Row[]): MemoryEntry<C>[] {
  let cache = contents.get(db);
  if (!cache) contents.set(db, (cache = new WeightedLru<number, unknown>(CONTENT_CHARS)));
  const parsed = cache;
  const rows = select();
  const out: MemoryEntry<C>[] = new Array(rows.length);
  let missing: number[] | null = null;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const content = parsed.get(r.id);
    if (content === undefined) (missing ??= []).push(i);
    out[i] = { id: r.id, kind: r.kind, key: r.key, content: content as C, validFromSeq: r.valid_from_seq, validToSeq: r.valid_to_seq };
  }
  if (missing) {
    const read = stmt(db, "select content from memory_entries where id = ?").pluck();
    for (const i of missing) {
      const text = read.get(out[i].id) as string;
      const content = deepFreeze(JSON.parse(text));
      parsed.set(out[i].id, content, text.length + 64);
      out[i].content = content as C;
    }
  }
  return out;
}

/**
 * A memory as it stands at `at` once every step up to `at` is complete (what an answer in session
 * `at` may see): read and parsed once per (version, at) and shared by every job that answers there,
 * since complete steps are never redone and later steps only write what `at` cannot see (README).
 * Only for readers that checked those steps are complete (lib/assistants/core/respond.ts); a build
 * reads its own writes through MemoryWriter. The entries are frozen (they are shared); list() returns
 * a fresh array each time.
 */
export class MemorySnapshot extends MemoryReader {
  private constructor(
    db: Db,
    versionId: number,
    at: number,
    private readonly snap: Snapshot,
  ) {
    super(db, versionId, at);
  }

  /** The snapshot of (version, at), read from SQLite only when this process has none in its cache. */
  static of(db: Db, versionId: number, at: number): MemorySnapshot {
    let cache = snapshots.get(db);
    if (!cache) snapshots.set(db, (cache = new WeightedLru(SNAPSHOT_ENTRIES, (s) => s.all.length + 1)));
    const key = `${versionId}:${at}`;
    let snap = cache.get(key);
    if (!snap) {
      const all = new MemoryReader(db, versionId, at).list().map(freezeEntry);
      const byKind = new Map<string, MemoryEntry[]>();
      for (const e of all) {
        const list = byKind.get(e.kind);
        if (list) list.push(e);
        else byKind.set(e.kind, [e]);
      }
      cache.set(key, (snap = { all, byKind }));
    }
    return new MemorySnapshot(db, versionId, at, snap);
  }

  override list<C = unknown>(kind?: string): MemoryEntry<C>[] {
    return ((kind === undefined ? this.snap.all : this.snap.byKind.get(kind)) ?? []).slice() as MemoryEntry<C>[];
  }

  override listPrefixed<C = unknown>(kind: string, prefix: string): MemoryEntry<C>[] {
    return (this.snap.byKind.get(kind) ?? []).filter((e) => e.key.startsWith(prefix)) as MemoryEntry<C>[];
  }

  override get<C = unknown>(kind: string, key: string): MemoryEntry<C> | null {
    // The visible entry of that kind and key with the lowest id, as the SQL's "order by id limit 1".
    let best: MemoryEntry | null = null;
    for (const e of this.snap.byKind.get(kind) ?? []) if (e.key === key && (!best || e.id < best.id)) best = e;
    return best as MemoryEntry<C> | null;
  }
}

type Snapshot = { all: MemoryEntry[]; byKind: Map<string, MemoryEntry[]> };
/** Entries kept across the snapshots of one database (a few tens of MB at PAL-Set sizes). */
const SNAPSHOT_ENTRIES = 100_000;
const snapshots = new WeakMap<Db, WeightedLru<string, Snapshot>>();

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
const freezeEntry = (e: MemoryEntry): MemoryEntry => deepFreeze(e);

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

  /**
   * Adds an entry, or replaces the visible entry with the same kind and key. `callKeys` names the
   * model calls whose replies it was made from ([] when none was: copies of the data, caches).
   * Stored sorted and once each (identical requests share a key): concurrent calls finish in any
   * order, and a rebuild must store the same memory.
   */
  put<C>(kind: string, key: string, content: C, callKeys: readonly string[] = []): MemoryEntry<C> {
    return transact(this.db, () => this.putRow(kind, key, content, callKeys));
  }

  /** put() without its own transaction: putAll's entries share one (no savepoint per entry). */
  private putRow<C>(kind: string, key: string, content: C, callKeys: readonly string[]): MemoryEntry<C> {
    this.expire(kind, key);
    const r = stmt(
      this.db,
      "insert into memory_entries (version_id, step_id, kind, key, content, valid_from_seq, call_keys) values (?, ?, ?, ?, ?, ?, ?)",
    ).run(this.versionId, this.stepId, kind, key, JSON.stringify(content), this.at, JSON.stringify([...new Set(callKeys)].sort()));
    return { id: Number(r.lastInsertRowid), kind, key, content, validFromSeq: this.at, validToSeq: null };
  }

  /** Adds many entries in one transaction (e.g. every log of a session). */
  putMany<C>(kind: string, items: Array<{ key: string; content: C; callKeys?: readonly string[] }>): void {
    this.putAll(items.map((it) => ({ kind, ...it })));
  }

  /** Adds entries of any kinds in one transaction: one commit per step, not per entry. */
  putAll(items: ReadonlyArray<{ kind: string; key: string; content: unknown; callKeys?: readonly string[] }>): void {
    transact(this.db, () => {
      for (const it of items) this.putRow(it.kind, it.key, it.content, it.callKeys ?? []);
    });
  }

  /** Ends the visibility of an entry (no-op when none is visible). Returns whether one was. */
  expire(kind: string, key: string): boolean {
    const e = stmt(
      this.db,
      `select id, valid_from_seq, step_id from memory_entries ${VISIBLE} and kind = ? and key = ? order by id limit 1`,
    ).get(this.versionId, this.at, this.at, kind, key) as { id: number; valid_from_seq: number; step_id: number } | undefined;
    if (!e) return false;
    if (e.step_id === this.stepId && e.valid_from_seq === this.at) {
      // Written and replaced within the same phase: nobody could ever see it.
      stmt(this.db, "delete from memory_entries where id = ?").run(e.id);
    } else {
      stmt(this.db, "update memory_entries set valid_to_seq = ?, expired_by_step_id = ? where id = ?").run(this.at, this.stepId, e.id);
    }
    return true;
  }
}
