import { AppError } from "@/lib/errors";

/** A refused command line (bad flag value, unreadable file): one line on stderr, exit code 1 (or `exitCode`). */
export class CliError extends AppError {
  constructor(message: string, exitCode = 1) {
    super(message, 400, "invalid_input", exitCode);
  }
}
