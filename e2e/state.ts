import fs from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";

export type Account = { role: string; email: string; password: string };
export type E2EState = { baseURL: string; dbPath: string; accounts: Account[]; startOutput: string; dir: string };

export function e2eState(): E2EState {
  const file = process.env.E2E_STATE;
  if (!file) throw new Error("E2E_STATE is not set: run the browser tests through `npx playwright test`");
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

export function account(role: string): Account {
  const a = e2eState().accounts.find((x) => x.role === role);
  if (!a) throw new Error(`no ${role} account in the e2e state`);
  return a;
}

/** Runs the CLI against the e2e database (the same file the server uses). */
export function pal(...args: string[]): string {
  const s = e2eState();
  const r = spawnSync("node", ["bin/pal.mjs", ...args], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { ...process.env, PAL_DB: s.dbPath },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`pal ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** Signs in through the login form, as a person would. */
export async function login(page: Page, a: Account) {
  await page.goto(`${e2eState().baseURL}/login`);
  await page.getByLabel("Email").fill(a.email);
  await page.getByLabel("Password").fill(a.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("current-user").waitFor();
}
