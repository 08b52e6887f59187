/**
 * The one error base of the domain. lib/ throws an AppError (or a subclass) for every expected
 * failure: a refused input, a missing record, a broken business rule. `withRole` turns it into a
 * JSON response with its status, server actions into `{ error }`, and the CLI into one line on
 * stderr with its exit code; anything else is a bug and stays a 500 / exit 1 with a stack in logs.
 */
export class AppError extends Error {
  constructor(
    message: string,
    /** HTTP status for route handlers. */
    readonly status = 400,
    /** A stable machine-readable code, e.g. "not_found", "invalid_input". */
    readonly code = "invalid_input",
    /** Exit code for the CLI. */
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input from a user or a file (400). The message names the file, record and field. */
export class InvalidInputError extends AppError {
  constructor(message: string) {
    super(message, 400, "invalid_input");
  }
}

/** A record that does not exist or is not visible to the caller (404). */
export class NotFoundError extends AppError {
  constructor(message: string) {
    super(message, 404, "not_found");
  }
}

/** A business rule forbids the action for this caller (403). */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(message, 403, "forbidden");
  }
}

/** The action conflicts with the current state (409): a duplicate, or a record in use. */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 409, "conflict");
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Too many requests of one kind from one user in a window (429). The message names the limit. */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    /** Seconds until the next request of this kind is accepted. */
    readonly retryAfterSeconds: number,
  ) {
    super(message, 429, "rate_limited");
  }
}

/** The database cannot take writes (disk full, read-only file, I/O failure) (503): nothing was saved, retry later. */
export class StorageUnavailableError extends AppError {
  constructor(message: string) {
    super(message, 503, "storage_unavailable");
  }
}

/**
 * SQLite's codes for "the write could not be stored" (better-sqlite3 puts them on `e.code`). The transaction
 * that hit them is rolled back, so the caller's work is not half-written; the user is told to try again.
 */
const STORAGE_CODES: Record<string, string> = {
  SQLITE_READONLY_DBMOVED: "the database file was moved or deleted while the server ran, so it is read-only",
  SQLITE_FULL: "the server's disk is full",
  SQLITE_READONLY: "the database is read-only",
  SQLITE_IOERR: "the server could not write to its disk",
  SQLITE_CANTOPEN: "the server could not open its database file",
  SQLITE_BUSY: "another long write (a data-set or bundle import, a backup) held the database for too long",
};

/** A StorageUnavailableError for an SQLite write failure, or null for any other error. */
export function storageError(e: unknown): StorageUnavailableError | null {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  if (typeof code !== "string") return null;
  const base = Object.keys(STORAGE_CODES).find((k) => code === k || code.startsWith(`${k}_`));
  if (!base) return null;
  return new StorageUnavailableError(`Not saved: ${STORAGE_CODES[base]} (${code}). Nothing was changed; try again later or tell an admin.`);
}
