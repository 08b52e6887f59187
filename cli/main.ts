import { Command, CommanderError } from "commander";
import { closeDb } from "@/db/client";
import { isAppError } from "@/lib/errors";
import { commands } from "./commands";
import { envValue } from "@/lib/config";

export function buildProgram(): Command {
  const program = new Command("pal")
    .description("PAL Studio command line: the same database and code as the web app (PAL_DB selects the file)")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI; returns the exit code. Failures print one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  // `pal export ... | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return err.exitCode;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`pal: ${msg.split("\n")[0]}\n`);
    if (envValue("PAL_DEBUG") && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return isAppError(err) ? err.exitCode : 1;
  } finally {
    closeDb();
  }
}
