/** `pal import hicupid` and `pal stats` end to end, in a child process against a temp database. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import {
  FIXTURE_HF,
  FIXTURE_JSONL,
  FIXTURE_STATS,
  ROOT,
  dumpDataset,
  readJsonl,
  tableCounts,
  tempDir,
  writeParquetAuto,
} from "@/test/hicupid";

let dir: string;
let dbFile: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  dbFile = path.join(dir, "pal.db");
});
afterAll(() => cleanup());

function pal(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/pal.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, PAL_DB: dbFile, PAL_DEBUG: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Counts and the earlier data set's rows, read in this process between CLI runs. */
function snapshot() {
  const db = openDb(dbFile);
  try {
    return { counts: tableCounts(db), earlier: dumpDataset(db, 1) };
  } finally {
    db.$client.close();
  }
}

describe("pal import hicupid", () => {
  it("imports the fixture and prints its counts", () => {
    const r = pal("import", "hicupid", FIXTURE_HF, "--name", "demo");
    expect(r.stderr).not.toMatch(/^pal:/m);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('imported hicupid data set "demo" (en): 3 users, 30 dialogues, 66 turns, 15 qa');
  });

  it("pal stats --json prints the fixture's counts", () => {
    const r = pal("stats", "--dataset", "demo", "--json");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FIXTURE_STATS);
  });

  it("refuses a missing required column: one line on stderr, exit non-zero, database unchanged", () => {
    const bad = path.join(dir, "bad");
    for (const f of ["dialogue/train", "dialogue/test_2", "qa/train", "qa/test_1", "qa/test_2"]) {
      const rows = readJsonl(path.join(FIXTURE_JSONL, `${f}.jsonl`));
      writeParquetAuto(path.join(bad, `${f}-00000-of-00001.parquet`), f === "qa/test_1" ? rows.map(({ question: _q, ...r }) => r) : rows);
    }
    const before = snapshot();
    const r = pal("import", "hicupid", bad, "--name", "x");
    expect(r.status).not.toBe(0);
    // Progress lines may precede it; the failure itself is exactly one line.
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("pal:"));
    expect(errors).toEqual(['pal: qa/test_1-00000-of-00001.parquet: row 1: missing required column "question"']);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(errors[0]);
    expect(snapshot()).toEqual(before);
  });

  it("refuses a taken name and replaces it with --replace", () => {
    const taken = pal("import", "hicupid", FIXTURE_JSONL, "--name", "demo");
    expect(taken.status).not.toBe(0);
    expect(taken.stderr.trimEnd().split("\n").at(-1)).toBe('pal: a data set named "demo" already exists (use --replace to replace it)');

    const replaced = pal("import", "hicupid", FIXTURE_JSONL, "--name", "demo", "--replace", "--json");
    expect(replaced.status).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ name: "demo", kind: "hicupid", stats: FIXTURE_STATS });
    expect(snapshot().counts).toEqual({ datasets: 1, hc_users: 3, hc_dialogues: 30, hc_turns: 66, hc_qa: 15 });
    expect(JSON.parse(pal("stats", "--dataset", "demo", "--json").stdout)).toEqual(FIXTURE_STATS);
  });
});
