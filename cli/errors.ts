/** An expected failure: printed as one line on stderr, exit code 1 (or `code`). */
export class CliError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}
