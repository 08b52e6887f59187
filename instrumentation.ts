/** Runs once when the server starts (Next's instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { envValue } = await import("@/lib/config");
  const http = await import("node:http");
  const { installForwardedHeaderGuard } = await import("@/lib/auth/client-ip");
  installForwardedHeaderGuard(http.default ?? http);
  // A backup or restore killed partway left its copy beside the database (lib/db-backup.ts): removed.
  const [{ removeStaleCopies }, { databasePath }, path] = await Promise.all([
    import("@/lib/db-backup"),
    import("@/db/client"),
    import("node:path"),
  ]);
  removeStaleCopies(path.dirname(databasePath()));
  if (process.env.NEXT_PHASE !== "phase-production-build" && envValue("PAL_SERVER_WORKER") !== "0") {
    const { startExperimentsWorker } = await import("@/lib/experiments/start-worker");
    startExperimentsWorker();
    const [{ getDb }, { resumeInterruptedWork }] = await Promise.all([import("@/db/client"), import("@/lib/runtime/startup")]);
    resumeInterruptedWork(getDb());
    // Judge runs sent as batches are polled again (their state is in the database).
    const { resumeBatchJudges } = await import("@/lib/annotation/llm-judge/batch-run");
    const { serverJudgeClient } = await import("@/lib/annotation/llm-judge/request");
    void resumeBatchJudges(getDb(), serverJudgeClient(getDb())).catch((e) => console.error("resuming batch judge runs failed:", e));
  }
}
