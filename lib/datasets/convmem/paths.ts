import fs from "node:fs";
import path from "node:path";
import { DatasetError } from "../types";

/** Files as given; a directory stands for its .json files in name order. */
export function expandJsonPaths(paths: string[]): string[] {
  if (!paths.length) throw new DatasetError("no files given");
  return paths.flatMap((p) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new DatasetError(`${path.basename(p)}: no such file or directory`);
    }
    if (!st.isDirectory()) return [p];
    const files = fs
      .readdirSync(p)
      .filter((f) => f.toLowerCase().endsWith(".json"))
      .sort()
      .map((f) => path.join(p, f));
    if (!files.length) throw new DatasetError(`${path.basename(p)}: no .json files in this folder`);
    return files;
  });
}
