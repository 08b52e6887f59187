import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { projectRoot } from "@/db/client";
import { datasets, type Role } from "@/db/schema";
import { createUser, countUsers } from "@/lib/users/users";
import { generatePassword } from "@/lib/users/password";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";

/**
 * The demo accounts created on a fresh database. Passwords are generated and shown once. A researcher
 * (who runs experiments and campaigns without the admin's user management) and three annotators: the
 * session-rating form asks for three ratings per item, as Mem-PAL's data check had.
 */
export const DEMO_ACCOUNTS: Array<{ email: string; name: string; role: Role }> = [
  { email: "admin@pal.local", name: "Demo admin", role: "admin" },
  { email: "researcher@pal.local", name: "Demo researcher", role: "researcher" },
  { email: "annotator1@pal.local", name: "Demo annotator 1", role: "annotator" },
  { email: "annotator2@pal.local", name: "Demo annotator 2", role: "annotator" },
  { email: "annotator3@pal.local", name: "Demo annotator 3", role: "annotator" },
];

/** The demo data sets this project ships (written by the project; see fixtures/README.md). */
export function demoDatasets() {
  const fx = path.join(projectRoot(), "fixtures");
  const palsetFiles = (lang: "zh" | "en") => {
    const dir = path.join(fx, "palset", lang);
    // input.json with all users plus the profile files beside it (not the per-user copies in users/).
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => path.join(dir, f));
  };
  return [
    { name: "PAL-Set demo (zh)", run: (db: Db) => importPalset(db, { paths: palsetFiles("zh"), name: "PAL-Set demo (zh)", lang: "zh" }) },
    { name: "PAL-Set demo (en)", run: (db: Db) => importPalset(db, { paths: palsetFiles("en"), name: "PAL-Set demo (en)", lang: "en" }) },
    { name: "HiCUPID demo", run: (db: Db) => importHicupid(db, { paths: [path.join(fx, "hicupid", "hf")], name: "HiCUPID demo" }) },
  ];
}

export type SeedResult = {
  createdAccounts: Array<{ email: string; role: Role; password: string }>;
  importedDatasets: string[];
  existingDatasets: string[];
};

/**
 * Brings a database to the demo state without touching what is there: accounts only when the
 * database has none, each demo data set only when no data set has its name.
 */
export async function seedDemo(db: Db): Promise<SeedResult> {
  const result: SeedResult = { createdAccounts: [], importedDatasets: [], existingDatasets: [] };
  if (countUsers(db) === 0) {
    for (const a of DEMO_ACCOUNTS) {
      const password = generatePassword();
      await createUser(db, { ...a, password });
      result.createdAccounts.push({ email: a.email, role: a.role, password });
    }
  }
  for (const d of demoDatasets()) {
    if (db.select({ id: datasets.id }).from(datasets).where(eq(datasets.name, d.name)).get()) {
      result.existingDatasets.push(d.name);
      continue;
    }
    await d.run(db);
    result.importedDatasets.push(d.name);
  }
  return result;
}
