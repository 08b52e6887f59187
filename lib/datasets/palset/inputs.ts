/**
 * What the user pointed the importer at: one input.json, a directory of per-user files (directly or
 * in a sub-directory such as users/), a list of files, plus profile files (told by name) in the same
 * directories or listed. Also the default data-set name.
 */
import fs from "node:fs";
import path from "node:path";
import { DatasetError } from "../types";
import { profileKindOf, type ProfileKind } from "./profile";

export type ResolvedInputs = {
  dataFiles: string[];
  profileFiles: Array<{ kind: ProfileKind; file: string }>;
};

const isJson = (f: string) => f.toLowerCase().endsWith(".json") && !path.basename(f).startsWith(".");

function jsonFilesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && isJson(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

export function resolveInputs(paths: string[]): ResolvedInputs {
  if (paths.length === 0) throw new DatasetError("no input given (expected input.json, a directory or files)");
  const dataFiles: string[] = [];
  const profileFiles: ResolvedInputs["profileFiles"] = [];
  const add = (f: string, explicit: boolean) => {
    const kind = profileKindOf(f);
    if (kind) profileFiles.push({ kind, file: f });
    else if (explicit || isJson(f)) dataFiles.push(f);
  };
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new DatasetError(`${p}: no such file or directory`);
    }
    if (!st.isDirectory()) {
      add(p, true);
      continue;
    }
    const top = jsonFilesIn(p);
    top.forEach((f) => add(f, false));
    if (top.some((f) => !profileKindOf(f))) continue;
    // No data at the top: the per-user layout keeps its files one level down (e.g. users/0000.json).
    const subdirs = fs
      .readdirSync(p, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith("."))
      .map((e) => path.join(p, e.name))
      .sort();
    for (const d of subdirs) for (const f of jsonFilesIn(d)) if (!profileKindOf(f)) dataFiles.push(f);
  }
  const unique = [...new Set(dataFiles.map((f) => path.resolve(f)))];
  if (unique.length === 0)
    throw new DatasetError(`${paths.join(", ")}: no PAL-Set data files found (expected input.json or per-user <id>.json files)`);
  return { dataFiles: unique, profileFiles };
}

const GENERIC = new Set(["input", "inputs", "data", "users", "user", "json", "zh", "en", "cn", "palset_data", "output_users"]);

/** A readable default name: the data set's directory (skipping input/users/en/zh levels) + language, e.g. "palset-en". */
export function defaultName(paths: string[], lang: string): string {
  let p = path.resolve(paths[0]);
  let base = path.basename(p).replace(/\.json$/i, "");
  while (GENERIC.has(base.toLowerCase()) || /^\d+$/.test(base) || base === "") {
    const parent = path.dirname(p);
    if (parent === p) {
      base = "palset";
      break;
    }
    p = parent;
    base = path.basename(p);
  }
  base = base.replace(/[-_](en|zh|cn)$/i, "");
  return `${base}-${lang}`;
}
