import "server-only";
import type { Role } from "@/db/schema";
import { isAppError, storageError } from "@/lib/errors";
import type { PublicUser } from "@/lib/users/users";
import { requireRole } from "./session";

/** What a server action returns to its form: a result, or the one-line reason it was refused. */
export type ActionResult<R extends object = object> = R & { error?: string };

/**
 * The server-action counterpart of `withRole`: checks the session and role (no session → /login, a
 * role not in `roles` → 403), runs `fn`, and turns an AppError it throws into `{ error }` for the
 * form. Anything else is a bug and is rethrown (Next's error page, a stack in the log).
 */
export async function runAction<R extends object>(roles: Role[], fn: (user: PublicUser) => Promise<R> | R): Promise<ActionResult<R>> {
  const user = await requireRole(...roles);
  try {
    return await fn(user);
  } catch (e) {
    const known = isAppError(e) ? e : storageError(e);
    if (known) return { error: known.message } as ActionResult<R>;
    throw e;
  }
}
