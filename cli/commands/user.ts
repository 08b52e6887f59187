import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import { ACCOUNT_ROLES, type Role } from "@/db/schema";
import { createUser, findUserWithHash, listUsers, setPassword } from "@/lib/users/users";
import { NotFoundError } from "@/lib/errors";
import { generatePassword } from "@/lib/users/password";
import { envValue } from "@/lib/config";
import { issueSignInLink, LINK_DEFAULT_HOURS, LINK_MAX_HOURS, revokeOpenLinks } from "@/lib/users/sign-in-links";
import { CliError } from "../errors";

export function registerUser(program: Command): void {
  const user = program.command("user").description(SUMMARIES.user);

  user
    .command("add")
    .description("create an account; prints a generated password when --password is not given")
    .requiredOption("--email <email>", "login email")
    .requiredOption("--role <role>", `one of ${ACCOUNT_ROLES.join(", ")}`)
    .option("--password <password>", "password (at least 8 characters)")
    .option("--name <name>", "display name")
    .option("--json", "machine-readable output")
    .action(async (opts: { email: string; role: string; password?: string; name?: string; json?: boolean }) => {
      const password = opts.password ?? generatePassword();
      const u = await createUser(getDb(), { email: opts.email, role: opts.role as Role, password, name: opts.name });
      const generated = opts.password ? undefined : password;
      if (opts.json) console.log(JSON.stringify({ ...u, ...(generated ? { password: generated } : {}) }));
      else console.log(`created ${u.role} ${u.email} (id ${u.id})${generated ? `\npassword: ${generated}` : ""}`);
    });

  user
    .command("list")
    .description("list accounts")
    .option("--json", "machine-readable output")
    .action((opts: { json?: boolean }) => {
      const rows = listUsers(getDb());
      if (opts.json) return void console.log(JSON.stringify(rows));
      for (const u of rows) console.log(`${String(u.id).padStart(4)}  ${u.role.padEnd(10)} ${u.disabled ? "disabled " : ""}${u.email}`);
    });

  user
    .command("passwd")
    .description("set a new password for an account; prints a generated one when --password is not given")
    .requiredOption("--email <email>", "login email")
    .option("--password <password>", "new password (at least 8 characters)")
    .action(async (opts: { email: string; password?: string }) => {
      const db = getDb();
      const u = findUserWithHash(db, opts.email);
      if (!u) throw new NotFoundError(`no user with email ${opts.email}`);
      const password = opts.password ?? generatePassword();
      await setPassword(db, u.id, password);
      console.log(`password changed for ${u.email}${opts.password ? "" : `\npassword: ${password}`}`);
    });

  user
    .command("link")
    .description("issue a one-time sign-in link for an account (printed once; it signs in once and replaces earlier links)")
    .requiredOption("--email <email>", "login email")
    .option("--hours <n>", `how long the link lasts, at most ${LINK_MAX_HOURS}`, String(LINK_DEFAULT_HOURS))
    .action((opts: { email: string; hours: string }) => {
      const db = getDb();
      const u = findUserWithHash(db, opts.email);
      if (!u) throw new NotFoundError(`no user with email ${opts.email}`);
      if (!/^\d+(\.\d+)?$/.test(opts.hours)) throw new CliError(`--hours: "${opts.hours}" is not a number of hours`);
      const l = issueSignInLink(db, u.id, null, Number(opts.hours));
      // The app's address as the server is told it (NEXTAUTH_URL), else the default port's.
      const base = (envValue("NEXTAUTH_URL") ?? `http://localhost:${envValue("PORT") ?? "3000"}`).replace(/\/+$/, "");
      console.log(`sign-in link for ${u.email} (signs in once, until ${new Date(l.expiresAt).toISOString()}):\n${base}${l.path}`);
    });

  user
    .command("revoke-link")
    .description("revoke an account's open sign-in links")
    .requiredOption("--email <email>", "login email")
    .action((opts: { email: string }) => {
      const db = getDb();
      const u = findUserWithHash(db, opts.email);
      if (!u) throw new NotFoundError(`no user with email ${opts.email}`);
      const n = revokeOpenLinks(db, u.id);
      console.log(`revoked ${n} open sign-in link${n === 1 ? "" : "s"} of ${u.email}`);
    });
}
