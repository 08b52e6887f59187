/**
 * Backing up and restoring the database file (`pal backup`, `pal restore`).
 *
 * A backup is SQLite's online backup (better-sqlite3's `db.backup()`), copied in one step so it reads
 * one snapshot: a server or an import writing meanwhile is either wholly in it or not at all. It is
 * written beside the target under a temporary name, checked (`integrity_check`) and only then renamed,
 * so a failed backup never leaves a file that looks like one.
 *
 * A restore replaces the database file only when no process has it open: the server, a `pal run`, an
 * import. Any of them would keep writing into the replaced file's pages (or its WAL) and corrupt it.
 */
import { openSqlite } from "@/db/client";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { rotateAuthSecret } from "@/lib/auth/secret";
import { pidAlive as holderPidAlive } from "@/lib/lease-holder";

/**
 * Creates `file` empty and private (0600) before SQLite writes a byte into it: SQLite gives the journal it
 * creates beside a database the database file's mode, so the copy and its -journal are never readable by
 * others, even for a moment (a chmod after the copy left a 19 MB window at 0644).
 */
function createPrivate(file: string): void {
  fs.closeSync(fs.openSync(file, "wx", 0o600));
  fs.chmodSync(file, 0o600); // openSync's mode is filtered by the umask; a umask can only remove bits, but be exact
}

/** The temporary copies of a backup or restore: `<file>.partial-<pid>`, `<file>.restore-<pid>`, and their -journal. */
const TEMPORARY = /\.(?:partial|restore)-(\d+)(?:-journal)?$/;

/**
 * Removes the temporary copies in `dir` whose process is gone (a `pal backup` killed partway, issue
 * 30.9): they hold the whole database, password hashes included, and nothing would ever use them.
 * A copy of a process still running is left to it. Returns the files removed.
 */
export function removeStaleCopies(dir: string, pidAlive: (pid: number) => boolean = holderPidAlive): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMPORARY.exec(name);
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Copies every page in one step: a snapshot, where the default 100-page steps restart while others write. */
const ALL_PAGES = 0x7fffffff;

export type BackupResult = { file: string; bytes: number; pages: number };

/** `PRAGMA integrity_check` and `foreign_key_check` of a database file: the problems found, none when sound. */
export function checkDatabase(file: string): string[] {
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma("integrity_check") as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    const fk = db.pragma("foreign_key_check") as Array<{ table: string; rowid: number; parent: string }>;
    return [
      ...integrity.filter((r) => r !== "ok"),
      ...fk.map((r) => `foreign key: ${r.table} row ${r.rowid} points to a missing ${r.parent} row`),
    ];
  } finally {
    db.close();
  }
}

/** Writes a consistent copy of `source` to `out` (refused when `out` exists). */
export async function backupDatabase(source: string, out: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new NotFoundError(`no database at ${source} (PAL_DB)`);
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new ConflictError(`${out} exists already; choose another --out file or remove it first`);
  if (!fs.existsSync(path.dirname(target))) throw new InvalidInputError(`--out: the folder ${path.dirname(target)} does not exist`);
  const partial = `${target}.partial-${process.pid}`;
  removeStaleCopies(path.dirname(target));
  const db = openSqlite(source, { fileMustExist: true });
  try {
    createPrivate(partial);
    db.pragma("busy_timeout = 5000");
    const r = await db.backup(partial, { progress: () => ALL_PAGES });
    // The copy inherits WAL mode; as a rollback-journal file it is one self-contained file (no -wal beside it).
    const copy = openSqlite(partial, { fileMustExist: true });
    copy.pragma("journal_mode = DELETE");
    copy.close();
    const problems = checkDatabase(partial);
    if (problems.length) throw new Error(`the backup failed its integrity check: ${problems.slice(0, 3).join("; ")}`);
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, pages: r.totalPages };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
}

/**
 * Process ids (other than this one) that have `file`, its -wal or its -shm open, read from /proc (Linux)
 * or `lsof` elsewhere; null when neither can tell.
 */
export function processesUsing(file: string): number[] | null {
  const names = new Set([file, `${file}-wal`, `${file}-shm`].map((f) => path.resolve(f)));
  if (fs.existsSync("/proc/self/fd")) {
    const pids = new Set<number>();
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      let fds: string[];
      try {
        fds = fs.readdirSync(`/proc/${entry}/fd`);
      } catch {
        continue; // gone, or another user's process we may not look into
      }
      for (const fd of fds) {
        try {
          if (names.has(fs.readlinkSync(`/proc/${entry}/fd/${fd}`))) pids.add(Number(entry));
        } catch {
          /* closed meanwhile */
        }
      }
    }
    return [...pids];
  }
  try {
    const out = execFileSync("lsof", ["-t", ...[...names].filter((f) => fs.existsSync(f))], { encoding: "utf8" });
    return out
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((p) => p !== process.pid);
  } catch (e) {
    // lsof exits 1 when no process has the files open.
    return (e as { status?: number }).status === 1 ? [] : null;
  }
}

export type RestoreResult = {
  file: string;
  bytes: number;
  previous: string | null;
  /** Whether every session was signed out (the session secret rotated); false when NEXTAUTH_SECRET is set. */
  sessionsSignedOut: boolean;
};

/**
 * Replaces the database `target` with the backup `from`. Refused, changing nothing, when the backup is
 * not a sound PAL Studio database or when any process has `target` open. The replaced database is kept
 * beside it as `<target>.before-restore-<time>`. Everyone is signed out (see rotateAuthSecret): the
 * backup's list of revoked sessions is older than the sessions signed out since.
 */
export async function restoreDatabase(from: string, target: string): Promise<RestoreResult> {
  if (!fs.existsSync(from)) throw new NotFoundError(`--from: no file at ${from}`);
  let problems: string[];
  try {
    problems = checkDatabase(from);
    const db = openSqlite(from, { readonly: true, fileMustExist: true });
    const pal = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    db.close();
    if (!pal) problems.push("it is not a PAL Studio database (no migrations table)");
  } catch (e) {
    throw new InvalidInputError(`--from: ${from} is not a SQLite database (${e instanceof Error ? e.message : e})`);
  }
  if (problems.length) throw new InvalidInputError(`--from: ${from} is not a sound backup: ${problems.slice(0, 3).join("; ")}`);

  const users = processesUsing(target);
  if (users === null)
    throw new ConflictError(`cannot tell whether ${target} is in use (no /proc, no lsof); stop the server and copy the file by hand`);
  if (users.length)
    throw new ConflictError(
      `${target} is in use by process ${users.join(", ")} (the server, a pal run or an import): stop it, then restore again; nothing was changed`,
    );

  // The copy is made beside the target (same file system, so the rename below is atomic).
  const staged = `${target}.restore-${process.pid}`;
  removeStaleCopies(path.dirname(target));
  const src = openSqlite(from, { readonly: true, fileMustExist: true });
  try {
    createPrivate(staged);
    await src.backup(staged, { progress: () => ALL_PAGES });
  } catch (e) {
    fs.rmSync(staged, { force: true });
    throw e;
  } finally {
    src.close();
  }
  let previous: string | null = null;
  if (fs.existsSync(target)) {
    // Fold the old WAL into its file so the kept copy is whole, then move it aside with it.
    const old = openSqlite(target, { fileMustExist: true });
    old.pragma("wal_checkpoint(TRUNCATE)");
    old.close();
    previous = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(target, previous);
  }
  // A WAL left beside the new file would be replayed into it: none may remain.
  for (const f of [`${target}-wal`, `${target}-shm`]) fs.rmSync(f, { force: true });
  fs.renameSync(staged, target);
  const sessionsSignedOut = rotateAuthSecret(target);
  return { file: target, bytes: fs.statSync(target).size, previous, sessionsSignedOut };
}
