/** Runs once when the server starts (Next's instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const http = await import("node:http");
  const { installForwardedHeaderGuard } = await import("@/lib/auth/client-ip");
  installForwardedHeaderGuard(http.default ?? http);
  if (process.env.NEXT_PHASE !== "phase-production-build" && process.env.PAL_SERVER_WORKER !== "0") {
    const { startExperimentsWorker } = await import("@/lib/jobs/bind");
    startExperimentsWorker();
    const [{ getDb }, { resumeInterruptedWork }] = await Promise.all([import("@/db/client"), import("@/lib/jobs/startup")]);
    resumeInterruptedWork(getDb());
  }
}
