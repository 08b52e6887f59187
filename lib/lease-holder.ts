/**
 * Who holds a lease (an experiment job's, a memory version's): "host:pid:nonce", optionally behind a
 * prefix such as "server:". A holder on this machine whose process is gone has crashed, so its lease
 * can be taken at once instead of after it runs out; holders on other machines keep theirs.
 */
import os from "node:os";

/** A fresh holder id for this process: one per claim, so two claimants in one process exclude each other. */
export function leaseHolderId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
}

/** Whether a process id is alive on this machine (signal 0 checks without sending anything). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether `holder` names a process of this machine that no longer runs. */
export function holderIsDeadLocal(holder: string, host = os.hostname()): boolean {
  const [h, pid] = holder.replace(/^server:/, "").split(":");
  return h === host && /^\d+$/.test(pid ?? "") && !pidAlive(Number(pid));
}
