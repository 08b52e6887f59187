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
  ) {
    super(message, 502, "model_failed", 3);
  }
}
