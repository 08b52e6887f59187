import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";

/**
 * Runs a page's loader: an AppError from it (unknown id, bad key, someone else's work) shows the
 * 404 page rather than a server error; anything else is a real fault and propagates.
 */
export function orNotFound<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (isAppError(err)) notFound();
    throw err;
  }
}
