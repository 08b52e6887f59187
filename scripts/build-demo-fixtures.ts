/**
 * Merges the demo PAL-Set, written one user at a time (fixtures/palset/<lang>/users/<uid>.json and
 * parts/<uid>.json), into the published layout: input.json with all users and one file per
 * profile record (background.json / background_en.json, ...). Run: npx tsx scripts/build-demo-fixtures.ts
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(import.meta.dirname, "..", "fixtures", "palset");
const RECORDS = ["background", "requirement", "preference", "situation", "requirement_framework", "solution_preference"] as const;

for (const lang of ["zh", "en"] as const) {
  const dir = path.join(ROOT, lang);
  const uids = fs.readdirSync(path.join(dir, "users")).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  const input: Record<string, unknown> = {};
  const records: Record<string, Record<string, unknown>> = Object.fromEntries(RECORDS.map((r) => [r, {}]));
  const templates: Record<string, unknown> = {};
  for (const uid of uids) {
    Object.assign(input, JSON.parse(fs.readFileSync(path.join(dir, "users", `${uid}.json`), "utf8")));
    const partsFile = path.join(dir, "parts", `${uid}.json`);
    if (!fs.existsSync(partsFile)) continue;
    const parts = JSON.parse(fs.readFileSync(partsFile, "utf8"));
    for (const r of RECORDS) if (parts[r]) records[r][uid] = parts[r];
    Object.assign(templates, parts.dialogue_template ?? {});
  }
  const suffix = lang === "en" ? "_en" : "";
  const write = (name: string, value: unknown) => fs.writeFileSync(path.join(dir, name), JSON.stringify(value, null, 2) + "\n");
  write("input.json", input);
  for (const r of RECORDS) write(`${r}${suffix}.json`, records[r]);
  write("dialogue_template.json", templates);
  console.log(`${lang}: ${uids.length} users merged`);
}
