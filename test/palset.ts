/** Helpers shared by the PAL-Set tests (the compact fixture, temp files, table counts). Not used by the app. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll } from "vitest";
import type { Db } from "@/db/client";
import { datasets, palCandidates, palLogs, palRequirementTypes, palSamples, palTopics, palTurns, palUsers } from "@/db/schema";

import { PALSET_MINI_EN, PALSET_MINI_ZH, ROOT } from "./fixtures";

export { ROOT };
export const EN_DIR = PALSET_MINI_EN;
export const ZH_DIR = PALSET_MINI_ZH;

/**
 * Fixture JSON as the tests handle it: parsed data they reshape freely, including into the invalid
 * shapes the importer must refuse, so it cannot carry the importer's own types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliberately untyped test data (see above)
export type FixtureJson = any;

export function readJson<T = FixtureJson>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The English fixture's data (input.json layout), freshly parsed: safe to mutate. */
export function enData(): Record<string, FixtureJson> {
  return readJson(path.join(EN_DIR, "input.json"));
}

/** The Chinese fixture's users merged into one object, in file order. */
export function zhData(): Record<string, FixtureJson> {
  const dir = path.join(ZH_DIR, "users");
  return Object.assign(
    {},
    ...fs
      .readdirSync(dir)
      .sort()
      .map((f) => readJson(path.join(dir, f))),
  );
}

const made: string[] = [];
// Registered in each test file that imports this module (vitest isolates modules per file).
afterAll(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh temp directory, removed when the test process exits. */
export function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pal-palset-"));
  made.push(d);
  return d;
}

/** Writes `data` as a JSON file (published layout) in a fresh temp dir; returns its path. */
export function writeTemp(data: unknown, name = "input.json", dir = tempDir()): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data, null, 4));
  return file;
}

/** Row counts of every PAL-Set table and of datasets: equal before and after a refused import. */
export function tableCounts(db: Db): Record<string, number> {
  const tables = { datasets, palUsers, palRequirementTypes, palSamples, palLogs, palTurns, palTopics, palCandidates };
  return Object.fromEntries(Object.entries(tables).map(([k, t]) => [k, db.select({ n: count() }).from(t).get()!.n]));
}
