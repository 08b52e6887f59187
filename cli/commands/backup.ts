import type { Command } from "commander";
import { closeDb, databasePath } from "@/db/client";
import { backupDatabase, restoreDatabase } from "@/lib/db-backup";

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export function registerBackup(program: Command): void {
  program
    .command("backup")
    .description("write a consistent copy of the database (PAL_DB) to FILE; safe while the server or an import writes")
    .requiredOption("--out <file>", "the backup file to create (refused when it exists)")
    .option("--json", "machine-readable output")
    .action(async (o: { out: string; json?: boolean }) => {
      const r = await backupDatabase(databasePath(), o.out);
      if (o.json) console.log(JSON.stringify(r));
      else console.log(`backed up ${databasePath()} to ${r.file} (${mb(r.bytes)}, ${r.pages} pages, integrity ok)`);
    });

  program
    .command("restore")
    .description("replace the database (PAL_DB) with a backup; refused while any process (the server) has it open")
    .requiredOption("--from <file>", "a file written by `pal backup`")
    .option("--json", "machine-readable output")
    .action(async (o: { from: string; json?: boolean }) => {
      closeDb(); // this process must not hold the file it replaces
      const r = await restoreDatabase(o.from, databasePath());
      if (o.json) console.log(JSON.stringify(r));
      else {
        console.log(
          `restored ${r.file} from ${o.from} (${mb(r.bytes)})${r.previous ? `; the replaced database is kept as ${r.previous}` : ""}`,
        );
        console.log(
          r.sessionsSignedOut
            ? "everyone is signed out: the session secret was rotated, since sessions signed out after this backup would be valid again"
            : "NEXTAUTH_SECRET is set, so sessions were not signed out: change it, or sessions signed out after this backup are valid again",
        );
      }
    });
}
