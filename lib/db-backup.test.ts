/**
 * `pal backup` / `pal restore` (issue 23, items 5 and 8): their temporary files are private from the
 * first byte, and a restore signs everyone out.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { authSecret, secretFile } from "@/lib/auth/secret";
import { removeStaleCopies } from "./db-backup";

let t: ReturnType<typeof tempDb>;
let dir: string;
let privateDir: string;
beforeEach(() => {
  t = tempDb();
  dir = path.dirname(t.file);
  privateDir = path.join(dir, "private");
  // About 24 MB, so that copying takes long enough to be watched.
  t.db.$client.exec("create table filler (b blob)");
  const put = t.db.$client.prepare("insert into filler values (randomblob(1000000))");
  for (let i = 0; i < 24; i++) put.run();
});
afterEach(() => t.cleanup());

/**
 * Runs `pal <args>` and, until `done` appears in the folder, records the mode of every file whose name
 * starts with `prefix` (the copy being written and its -journal). The polling loop is synchronous on
 * purpose: the CLI is another process, and a loop that never yields sees the files as they are made.
 */
async function watchModes(
  args: string[],
  prefix: string,
  done: string,
  env: Record<string, string> = {},
): Promise<{ modes: Map<string, Set<string>>; out: string }> {
  const old = process.umask(0o022); // what a usual shell gives: a file made without a mode is 0644
  const child = spawn(process.execPath, ["bin/pal.mjs", ...args], {
    env: { ...process.env, PAL_DB: t.file, PAL_PRIVATE_DIR: privateDir, ...env },
  });
  process.umask(old);
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  const closed = new Promise((resolve) => child.on("close", resolve));
  const modes = new Map<string, Set<string>>();
  const until = Date.now() + 60_000;
  while (Date.now() < until && !fs.existsSync(done)) {
    for (const f of fs.readdirSync(dir)) {
      if (!f.startsWith(prefix) || path.join(dir, f) === done) continue;
      try {
        const m = (fs.statSync(path.join(dir, f)).mode & 0o777).toString(8);
        const kind = f.replace(/-\d+/, "-<pid>");
        if (!modes.has(kind)) modes.set(kind, new Set());
        modes.get(kind)!.add(m);
      } catch {
        /* renamed or removed meanwhile */
      }
    }
  }
  await closed;
  return { modes, out };
}

/** Runs `pal <args>` on the test database; resolves with its output. */
function pal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ["bin/pal.mjs", ...args], {
    env: { ...process.env, PAL_DB: t.file, PAL_PRIVATE_DIR: privateDir, ...env },
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  return new Promise((resolve) => child.on("close", () => resolve(out)));
}

describe("pal backup and restore: private temporary files, sessions signed out", () => {
  it("writes FILE.partial-<pid> and its -journal, and PAL_DB.restore-<pid>, as 0600 from the first byte", async () => {
    const backup = path.join(dir, "b.db");
    const b = await watchModes(["backup", "--out", backup], "b.db.", backup);
    expect(b.out).toMatch(/backed up/);
    expect([...b.modes.keys()]).toContain("b.db.partial-<pid>");
    for (const [file, seen] of b.modes) expect([file, [...seen]]).toEqual([file, ["600"]]);
    expect((fs.statSync(backup).mode & 0o777).toString(8)).toBe("600");

    t.db.$client.close();
    fs.rmSync(t.file);
    const r = await watchModes(["restore", "--from", backup], "test.db.restore", t.file);
    expect(r.out).toMatch(/restored/);
    expect([...r.modes.keys()]).toContain("test.db.restore-<pid>");
    for (const [file, seen] of r.modes) expect([file, [...seen]]).toEqual([file, ["600"]]);
    t.db = (await import("@/db/client")).openDb(t.file); // for cleanup
  });

  it("a restore rotates the database's session secret and says so; with NEXTAUTH_SECRET it says to change it", async () => {
    const env = { PAL_PRIVATE_DIR: privateDir };
    const before = authSecret(env, t.file);
    const backup = path.join(dir, "b.db");
    expect(await pal(["backup", "--out", backup])).toMatch(/backed up/);
    t.db.$client.close();

    expect(await pal(["restore", "--from", backup])).toMatch(/everyone is signed out: the session secret was rotated/);
    expect(fs.existsSync(secretFile(t.file, env))).toBe(false);
    expect(authSecret(env, t.file)).not.toBe(before);

    const kept = authSecret(env, t.file);
    expect(await pal(["restore", "--from", backup], { NEXTAUTH_SECRET: "x".repeat(40) })).toMatch(
      /NEXTAUTH_SECRET is set, so sessions were not signed out/,
    );
    expect(authSecret(env, t.file)).toBe(kept);
    t.db = (await import("@/db/client")).openDb(t.file);
  });
});

describe("leftovers of a backup killed partway (issue 30.9)", () => {
  it("the next backup removes the copies and journals of processes that are gone, keeps a running one's, and writes its own 0600", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const backup = path.join(dir, "b.db");
      const stale = [`b.db.partial-${dead}`, `b.db.partial-${dead}-journal`, `old.db.restore-${dead}`];
      const running = `b.db.partial-${live.pid}`;
      for (const f of [...stale, running]) fs.writeFileSync(path.join(dir, f), "secret pages", { mode: 0o600 });
      const out = await pal(["backup", "--out", backup]);
      expect(out).toMatch(/backed up/);
      for (const f of stale) expect(fs.existsSync(path.join(dir, f)), f).toBe(false);
      expect(fs.existsSync(path.join(dir, running))).toBe(true);
      expect((fs.statSync(backup).mode & 0o777).toString(8)).toBe("600");
      // The same sweep runs when the server starts, beside the database.
      fs.writeFileSync(path.join(dir, `test.db.restore-${dead}`), "x");
      expect(removeStaleCopies(dir)).toEqual([`test.db.restore-${dead}`]);
    } finally {
      live.kill("SIGKILL");
    }
  });
});
