import "server-only";
import type { Role } from "@/db/schema";
import { actionResult, type ActionResult } from "@/lib/http/action-result";
import type { PublicUser } from "@/lib/users/users";
import { requireRole } from "./session";

export type { ActionResult };

/**
 * The server-action counterpart of `withRole`: checks the session and role (no session → /login, a
 * role not in `roles` → 403), runs `fn`, and turns an AppError it throws into `{ error, status, code }`
 * for the form (lib/http/action-result.ts). Anything else is a bug and is rethrown (Next's error page,
 * a stack in the log). Every server action is built with this, and validates its form with
 * `parseForm` (lib/http/form.ts) inside `fn`, so bad input is a 400 with the field, never a 500.
 */
export async function runAction<R extends object>(roles: Role[], fn: (user: PublicUser) => Promise<R> | R): Promise<ActionResult<R>> {
  const user = await requireRole(...roles);
  return actionResult(() => fn(user));
}
