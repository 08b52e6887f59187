/** worker-count.ts: the Admin setting's form, through the one action translation (real SQLite). */
import os from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { actionResult } from "@/lib/http/action-result";
import { readSetting } from "@/lib/settings/store";
import { createUser } from "@/lib/users/users";
import { getServerWorkers, maxServerWorkers, saveWorkersForm, WORKERS_KEY } from "./worker-count";

let t: ReturnType<typeof tempDb>;
/** The admin saving it: the setting records who changed it. */
let me: number;
beforeEach(async () => {
  t = tempDb();
  me = (await createUser(t.db, { email: "admin@x.io", role: "admin", password: "password-123" })).id;
});
afterEach(() => t.cleanup());

const form = (workers: string) => {
  const f = new FormData();
  f.append("workers", workers);
  return f;
};

describe("Admin → Settings → Worker processes", () => {
  it("saves a whole number from 1 to twice the cores", () => {
    expect(maxServerWorkers()).toBe(Math.max(2, os.availableParallelism() * 2));
    expect(saveWorkersForm(t.db, form(" 2 "), me)).toEqual({ ok: "Runs use 2 processes.", workers: 2 });
    expect(getServerWorkers(t.db)).toBe(2);
    expect(saveWorkersForm(t.db, form("1"), me).ok).toBe("Runs use one process.");
    expect(getServerWorkers(t.db)).toBe(1);
  });

  it("refuses anything else with a 400 naming the field and the range, and saves nothing", async () => {
    const max = maxServerWorkers();
    for (const [value, error] of [
      ["0", "workers: at least 1"],
      ["-1", "workers: expected a whole number"],
      ["2.5", "workers: expected a whole number"],
      ["", "workers: expected a whole number"],
      [String(max + 1), `workers: at most ${max} (twice this machine's cores)`],
    ]) {
      const r = await actionResult(() => saveWorkersForm(t.db, form(value), me));
      expect(r).toMatchObject({ status: 400, code: "invalid_input", error });
    }
    expect(readSetting(t.db, WORKERS_KEY)).toBeUndefined();
    expect(getServerWorkers(t.db)).toBe(1);
  });
});
