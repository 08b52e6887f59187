import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDb } from "./client";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-dbmode-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("openDb file modes", () => {
  it("tightens an existing 0644 database and its -wal/-shm files to 0600, and says so", () => {
    const file = path.join(tmp, "old.db");
    // A database left by an older version, readable by everyone, with its WAL files present.
    const old = new Database(file);
    old.pragma("journal_mode = WAL");
    old.exec("create table t(x); insert into t values (1)");
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.chmodSync(f, 0o644);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const db = openDb(file);
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
      const said = warn.mock.calls.map((c) => String(c[0])).join("\n");
      expect(said).toContain(`${file} had mode 0644; restricted it to its owner (0600)`);
      expect(said).toContain(`${file}-wal had mode 0644`);
      expect(db.$client.prepare("select x from t").get()).toEqual({ x: 1 });
    } finally {
      db.$client.close();
      old.close();
    }
  });

  it("leaves a 0600 database alone and silent", () => {
    const file = path.join(tmp, "new.db");
    openDb(file).$client.close();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    openDb(file).$client.close();
    expect(mode(file)).toBe(0o600);
    expect(warn).not.toHaveBeenCalled();
  });
});
