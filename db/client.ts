// The database is for the server only: a client component that imports this module fails the build.
// The CLI bundle (bin/pal.mjs) and vitest resolve "server-only" to an empty module.
import "server-only";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import { envValue } from "@/lib/config";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The project root: set by bin/pal.mjs so the CLI works from any directory; else the cwd (Next). */
export function projectRoot(): string {
  return envValue("PAL_ROOT") ?? process.cwd();
}

export function databasePath(): string {
  const p = envValue("PAL_DB") ?? "data/pal.db";
  return path.isAbsolute(p) ? p : path.join(/*turbopackIgnore: true*/ projectRoot(), p);
}

/**
 * A database created by an older version (or copied in) may be readable by others (0644). Its
 * -wal and -shm files hold recent pages, so they are restricted too. Said on stderr, since an admin
 * who shared the file on purpose should know; a file we may not chmod is refused.
 */
function restrictToOwner(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    let st: fs.Stats;
    try {
      st = fs.statSync(f);
    } catch {
      continue; // no -wal/-shm yet
    }
    const mode = st.mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      fs.chmodSync(f, mode & 0o700);
    } catch (e) {
      throw new Error(
        `${f} has mode ${mode.toString(8).padStart(4, "0")} (readable by other users) and cannot be restricted: ${(e as Error).message}; run chmod 600 ${f}`,
      );
    }
    console.warn(
      `pal: ${f} had mode ${mode.toString(8).padStart(4, "0")}; restricted it to its owner (${(mode & 0o700).toString(8).padStart(4, "0")})`,
    );
  }
}

/**
 * better-sqlite3's native addon, by path when it is where npm puts it: its default loader (the
 * `bindings` package) tries a dozen paths first, which is a noticeable part of a CLI start.
 */
function sqliteAddon(): string | undefined {
  const addon = path.join(
    /*turbopackIgnore: true*/ projectRoot(),
    "node_modules",
    "better-sqlite3",
    "build",
    "Release",
    "better_sqlite3.node",
  );
  return fs.existsSync(addon) ? addon : undefined;
}

/**
 * A plain better-sqlite3 connection with the addon loaded by path. Every connection the project opens
 * goes through here: in the CLI bundle the `bindings` loader cannot find the addon at all.
 */
export function openSqlite(file: string, options: Database.Options = {}): Database.Database {
  return new Database(file, { nativeBinding: sqliteAddon(), ...options });
}

/** Open (creating if needed) a database file with WAL and foreign keys, migrated to the latest schema. */
export function openDb(file: string = databasePath()): Db {
  if (file !== ":memory:") {
    fs.mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
    // Only this user may read the data (password hashes, annotations); SQLite gives its -wal and
    // -shm files the same mode as the database file.
    fs.closeSync(fs.openSync(file, "a", 0o600));
    restrictToOwner(file);
  }
  const sqlite = openSqlite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  cacheStatements(db, sqlite);
  const migrationsFolder = path.join(/*turbopackIgnore: true*/ projectRoot(), "db", "migrations");
  if (!isMigrated(sqlite, migrationsFolder)) migrate(db, { migrationsFolder });
  return db;
}

/**
 * Whether the database already has every migration, decided as drizzle's migrator decides (a
 * migration runs when its journal time is after the newest recorded one), from the journal alone:
 * the migrator reads and hashes every SQL file, which each CLI start would pay for nothing.
 */
function isMigrated(sqlite: Database.Database, migrationsFolder: string): boolean {
  const hasTable = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!hasTable) return false;
  const last = sqlite.prepare("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1").get() as
    { created_at: number | string } | undefined;
  if (!last) return false;
  const journal = JSON.parse(fs.readFileSync(path.join(/*turbopackIgnore: true*/ migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ when: number }>;
  };
  return journal.entries.every((e) => e.when <= Number(last.created_at));
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Drizzle compiles every query it runs with `prepare`, which costs more than running a small query. Its
 * session gets a client whose `prepare` keeps the last few hundred statements by SQL text (values are
 * bound parameters, so the texts repeat). Drizzle switches a statement to raw rows when it wants arrays
 * and never back, so a reused statement is reset to objects first. Direct `db.$client` use is untouched.
 */
function cacheStatements(db: Db, sqlite: Database.Database): void {
  const cache = new Map<string, Database.Statement>();
  const client = {
    prepare(text: string): Database.Statement {
      let s = cache.get(text);
      if (s) {
        cache.delete(text); // re-inserted below: the Map's order is the least recently used first
        if (s.busy)
          s = sqlite.prepare(text); // still iterating: a second use needs its own statement
        else if (s.reader) s.raw(false);
      } else {
        s = sqlite.prepare(text);
      }
      cache.set(text, s);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return s;
    },
    transaction: sqlite.transaction.bind(sqlite),
  };
  (db as unknown as { session: { client: unknown } }).session.client = client;
}

const globalForDb = globalThis as unknown as { __palDb?: { file: string; db: Db } };

/** The process-wide connection (one per database file; survives Next's dev reloads). */
export function getDb(): Db {
  const file = databasePath();
  if (!globalForDb.__palDb || globalForDb.__palDb.file !== file) {
    globalForDb.__palDb = { file, db: openDb(file) };
  }
  return globalForDb.__palDb.db;
}

/** Close the process-wide connection (tests, CLI exit). */
export function closeDb(): void {
  globalForDb.__palDb?.db.$client.close();
  globalForDb.__palDb = undefined;
}
