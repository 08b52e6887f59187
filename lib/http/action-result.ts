/**
 * The one translation of errors for server actions (runAction in lib/auth/action.ts uses it): an
 * AppError becomes `{ error, status, code }` for the form, with the status a route handler would have
 * answered (400 bad input, 404 unknown record, ...). Anything else is a bug and is rethrown.
 *
 * Why not an HTTP status: Next answers a server action with 200 (a result) or 500 (a thrown error) and
 * offers only 401/403/404 through its access fallbacks; a refused input is an outcome the form shows,
 * so it travels in the result, never as a thrown error (which would be the 500 with a stack).
 */
import { isAppError, storageError } from "@/lib/errors";

/** What a server action returns to its form: a result, or the one-line reason it was refused with its status. */
export type ActionResult<R extends object = object> = R & { error?: string; status?: number; code?: string };

export async function actionResult<R extends object>(fn: () => Promise<R> | R): Promise<ActionResult<R>> {
  try {
    return (await fn()) as ActionResult<R>;
  } catch (e) {
    // A write the disk or database could not take (full, read-only) is a 503 the form shows, not a crash.
    const known = isAppError(e) ? e : storageError(e);
    if (known) return { error: known.message, status: known.status, code: known.code } as ActionResult<R>;
    throw e;
  }
}

/**
 * A server action as `useActionState` calls it. Components take their actions as props of this type
 * from their page (components never import app/), so a form is rendered with whatever action the page gives it.
 */
export type FormAction<R extends object = object> = (prev: ActionResult<R>, form: FormData) => Promise<ActionResult<R>>;
