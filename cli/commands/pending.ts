import type { Command } from "commander";
import { CliError } from "../errors";

/**
 * Command groups whose issues have not landed yet. They are listed in --help so the shape of the
 * CLI is visible, and fail honestly when used.
 */
const PENDING: Array<[string, string]> = [["eval", "score the outputs of an experiment"]];

export function registerPending(program: Command): void {
  for (const [name, description] of PENDING) {
    program
      .command(name)
      .description(`${description} (not available yet)`)
      .allowUnknownOption()
      .argument("[args...]")
      .action(() => {
        throw new CliError(`'pal ${name}' is not available yet in this version of PAL Studio`, 2);
      });
  }
}
