import path from "node:path";
import { vi } from "vitest";

/**
 * Points the model settings at a temp database, with a generated encryption key in a private folder
 * beside it (one per test), and stubs the given environment on top (restore with vi.unstubAllEnvs()).
 */
export function stubModelEnv(dbFile: string, env: Record<string, string> = {}): void {
  vi.stubEnv("PAL_DB", dbFile);
  vi.stubEnv("PAL_PRIVATE_DIR", path.join(path.dirname(dbFile), "private"));
  vi.stubEnv("PAL_SECRET_KEY", "");
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
}
