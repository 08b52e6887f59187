import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import { ACCOUNT_ROLES, type Role } from "@/db/schema";
import { createUser, findUserWithHash, listUsers, setPassword } from "@/lib/users/users";
import { NotFoundError } from "@/lib/errors";
import { generatePassword } from "@/lib/users/password";

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
}
