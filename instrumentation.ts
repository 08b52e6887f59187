/** Runs once when the server starts (Next's instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const http = await import("node:http");
  const { installForwardedHeaderGuard } = await import("@/lib/auth/client-ip");
  installForwardedHeaderGuard(http.default ?? http);
}
