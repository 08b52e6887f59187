import { describe, expect, it, afterAll } from "vitest";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cli-"));
const env = { ...process.env, PAL_DB: path.join(dir, "cli.db") };
const pal = (...args: string[]) => spawnSync("node", ["bin/pal.mjs", ...args], { env, encoding: "utf8" });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("pal CLI", () => {
  it("prints help listing the command groups", () => {
    const r = pal("--help");
    expect(r.status).toBe(0);
    for (const c of ["user", "import", "export", "stats", "demo", "run", "memory", "campaign"])
      expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, "m"));
  });

  it("adds users (generating a password when none is given), lists them, refuses bad input with one line", () => {
    const a = pal("user", "add", "--email", "pi@lab.org", "--role", "admin", "--json");
    expect(a.status).toBe(0);
    const created = JSON.parse(a.stdout);
    expect(created).toMatchObject({ email: "pi@lab.org", role: "admin" });
    expect(created.password).toMatch(/^\S{16}$/);
    expect(pal("user", "add", "--email", "ra@lab.org", "--role", "researcher", "--password", "long-enough").status).toBe(0);
    const list = JSON.parse(pal("user", "list", "--json").stdout);
    expect(list.map((u: { email: string }) => u.email)).toEqual(["pi@lab.org", "ra@lab.org"]);
    expect(JSON.stringify(list)).not.toContain("hash");

    const dup = pal("user", "add", "--email", "PI@lab.org", "--role", "admin");
    expect(dup.status).toBe(1);
    expect(dup.stderr.trim().split("\n")).toEqual(["pal: a user with email pi@lab.org already exists"]);
    const badRole = pal("user", "add", "--email", "x@lab.org", "--role", "boss");
    expect(badRole.status).toBe(1);
    expect(badRole.stderr).toMatch(/^pal: role: must be one of admin, researcher, annotator\n$/);
  });

  it("resets a password", () => {
    const r = pal("user", "passwd", "--email", "ra@lab.org");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/password: \S{16}/);
    expect(pal("user", "passwd", "--email", "nobody@lab.org").stderr).toMatch(/no user with email/);
  });

  it("`pal run` names a missing data set in one line", () => {
    const run = pal("run", "--dataset", "x", "--method", "vanilla", "--task", "requirement", "--dry-run");
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('pal: no data set named "x"');
  });
});
