import { AppError } from "@/lib/errors";

/** A body larger than its endpoint takes (413). */
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(message, 413, "payload_too_large");
  }
}

/**
 * Reads a request body (or a reply's) as text, at most `maxBytes`: a larger declared Content-Length is refused
 * before reading, and a chunked body is cut off as soon as it passes the limit, so an endpoint that only needs
 * a few fields never holds megabytes in memory. `tooLarge` makes the error (default: 413 for a request).
 */
export async function readCappedText(
  msg: Request | Response,
  maxBytes: number,
  tooLarge: (why: string) => Error = () => new PayloadTooLargeError(`the request body is limited to ${maxBytes} bytes`),
): Promise<string> {
  const declared = Number(msg.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(`${declared} bytes declared`);
  if (!msg.body) return "";
  const reader = msg.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(`more than ${maxBytes} bytes sent`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
