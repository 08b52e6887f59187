import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, type Db } from "@/db/client";

/** A fresh, migrated database in a temp file; removed by the returned cleanup. */
export function tempDb(): { db: Db; file: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-test-"));
  const file = path.join(dir, "test.db");
  const db = openDb(file);
  return {
    db,
    file,
    cleanup: () => {
      db.$client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
