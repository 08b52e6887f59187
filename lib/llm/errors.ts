import { AppError } from "@/lib/errors";

/**
 * A model step that could not produce an accepted reply: the endpoint kept failing, or every
 * regenerated reply was invalid. `rawReply` is the last reply received (also in the ledger).
 */
export class ModelCallError extends AppError {
  constructor(
    message: string,
    readonly purpose: string,
    readonly rawReply: string | null,
    /** "transport": the endpoint failed; "invalid": replies never validated. */
    readonly reason: "transport" | "invalid",
    /**
     * The endpoint refused the request itself (HTTP 400 context length or invalid request, 401, 403,
     * 404 model): asking again cannot help and costs money, so no level retries it (client, task
     * regenerations, job attempts).
     */
    readonly deterministic = false,
  ) {
    super(message, 502, "model_failed", 3);
  }
}
