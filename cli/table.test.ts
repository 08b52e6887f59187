/** `pal table`: the paper tables of a known experiment (test/known-experiment.ts), as the fixtures have them. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { seedKnownExperiment } from "@/test/known-experiment";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/paper-tables");

describe("pal table", () => {
  let t: ReturnType<typeof tempDb>;
  let id: number;
  const pal = (...args: string[]) =>
    spawnSync("node", ["bin/pal.mjs", "table", ...args], { env: { ...process.env, PAL_DB: t.file }, encoding: "utf8", timeout: 120_000 });
  beforeAll(() => {
    t = tempDb();
    id = seedKnownExperiment(t.db.$client as never);
  });
  afterAll(() => t.cleanup());

  it("--format csv and latex print the fixtures; markdown the same table", () => {
    const csv = pal(String(id), "--format", "csv");
    expect(csv.stderr).toBe("");
    expect(csv.status).toBe(0);
    expect(csv.stdout).toBe(fs.readFileSync(path.join(FIXTURES, "known-experiment.csv"), "utf8"));
    const tex = pal(String(id));
    expect(tex.stdout).toBe(
      fs.readFileSync(path.join(FIXTURES, "known-experiment.tex"), "utf8").replace("Experiment 1 ", `Experiment ${id} `),
    );
    const md = pal(String(id), "--format", "markdown", "--table", "mem-pal-table3");
    expect(md.stdout).toContain("### Mem-PAL Table 3: multi-turn dialogue interaction (Win / Tie / Lose)");
    expect(md.stdout).toContain("| Vanilla (w/o log) | 1.3 ± 0.6 | 0.3 ± 0.6 | 0.3 ± 0.6 | 2.0 ± 0.0 | 0.0 ± 0.0 | 0.0 ± 0.0 |");
    expect(md.stdout).not.toContain("Table 2");
  });

  it("refuses a bad format or an unknown experiment in one line", () => {
    const bad = pal(String(id), "--format", "docx");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('pal: format: "docx" is not one of latex, markdown, csv\n');
    const none = pal("999");
    expect(none.stderr).toBe("pal: experiment 999 does not exist\n");
    expect(none.status).not.toBe(0);
  });
});
