import { Command, CommanderError } from "commander";
import { isAppError } from "@/lib/errors";
import { envValue } from "@/lib/config";
import { COMMAND_GROUPS } from "./commands";
import { SUMMARIES, type TopCommand } from "./commands/summaries";

/**
 * The program with the command groups `argv` needs: the group of its command, or (no command,
 * `--help`, an unknown word) every top-level command as a one-line stub for the help listing.
 * Without argv every group is loaded (the full tree, e.g. for tests).
 */
export async function buildProgram(argv?: string[]): Promise<{ program: Command; loaded: boolean }> {
  const program = new Command("pal")
    .description("PAL Studio command line: the same database and code as the web app (PAL_DB selects the file)")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const words = (argv ?? []).filter((a) => !a.startsWith("-"));
  // `pal help <command>` is help about that command: load its group.
  const word = words[0] === "help" ? words[1] : words[0];
  const groups = argv ? COMMAND_GROUPS.filter((g) => g.commands.includes(word as TopCommand)) : COMMAND_GROUPS;
  for (const g of groups) (await g.load())(program);
  if (groups.length === 0) for (const name of Object.keys(SUMMARIES) as TopCommand[]) program.command(name).description(SUMMARIES[name]);
  return { program, loaded: groups.length > 0 };
}

/** Runs the CLI; returns the exit code. Failures print one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  // `pal export ... | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
  });
  let loaded = false;
  process.exitCode = undefined; // a command of this run sets it (main may run more than once in a process: tests)
  try {
    const built = await buildProgram(argv);
    loaded = built.loaded;
    await built.program.parseAsync(argv, { from: "user" });
    // A command that finished with failures (items that failed, a run that paused itself) set exit code 3.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
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
    // Only a command that ran can have opened the database; help never loads it. Model replies still on
    // their way (a memory build that failed with calls in flight) were paid for: their ledger rows are
    // written before the database closes (lib/llm/inflight.ts); nothing new is sent meanwhile.
    if (loaded) {
      const inflight = await import("@/lib/llm/inflight");
      await inflight.drainModelRequests((n) =>
        process.stderr.write(`waiting for ${n} model ${n === 1 ? "reply" : "replies"} still in flight, to record what they cost\n`),
      );
      (await import("@/db/client")).closeDb();
      inflight.resumeModelRequests(); // main may run again in this process (tests)
    }
  }
}
