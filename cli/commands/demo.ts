import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(SUMMARIES.demo)
    .option("--json", "machine-readable output")
    .action(async (o: { json?: boolean }) => {
      const { seedDemo } = await import("@/lib/demo/seed");
      const r = await seedDemo(getDb());
      if (o.json) return void console.log(JSON.stringify(r));
      for (const d of r.importedDatasets) console.log(`imported demo data set: ${d}`);
      if (r.createdAccounts.length) {
        console.log("\nDemo accounts (passwords are shown only this once; reset with `npx pal user passwd --email ...`):");
        for (const a of r.createdAccounts) console.log(`  ${a.role.padEnd(10)} ${a.email.padEnd(24)} password: ${a.password}`);
        console.log("");
      } else {
        console.log("accounts exist already; nothing changed (reset a password with `npx pal user passwd --email ...`)");
      }
    });
}
