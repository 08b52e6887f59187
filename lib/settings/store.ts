/** Admin settings: one JSON value per key in `app_settings`; a missing key reads as its default. */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { appSettings } from "@/db/schema";

export function readSetting(db: Db, key: string): unknown {
  return db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key)).get()?.value;
}

export function writeSetting(db: Db, key: string, value: unknown, userId: number | null): void {
  const now = Date.now();
  db.insert(appSettings)
    .values({ key, value, updatedAt: now, updatedBy: userId })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: now, updatedBy: userId } })
    .run();
}
