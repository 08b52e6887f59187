/**
 * Who holds a lease (an experiment job's, a memory version's): "host:pid:nonce:start", optionally
 * behind a prefix such as "server:". A holder on this machine whose process is gone has crashed, so its
 * lease can be taken at once instead of after it runs out; holders on other machines keep theirs.
 * `start` is when the process started (Linux: its start time in clock ticks since boot): a restarted
 * server often gets the same pid again (a container's), and that pid being alive says nothing then.
 */
import fs from "node:fs";
import os from "node:os";

/** When process `pid` started, as /proc says (ticks since boot), or null where there is no /proc. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null; // field 22 of the whole line
  } catch {
    return null;
  }
}

let ownStart: string | null | undefined;

/** A fresh holder id for this process: one per claim, so two claimants in one process exclude each other. */
export function leaseHolderId(): string {
  if (ownStart === undefined) ownStart = processStart(process.pid);
  const nonce = Math.random().toString(36).slice(2, 10);
  return `${os.hostname()}:${process.pid}:${nonce}${ownStart ? `:${ownStart}` : ""}`;
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

/** Whether `holder` names a process of this machine that no longer runs (its pid gone, or now another process's). */
export function holderIsDeadLocal(holder: string, host = os.hostname()): boolean {
  const [h, pid, , start] = holder.replace(/^server:/, "").split(":");
  if (h !== host || !/^\d+$/.test(pid ?? "")) return false;
  if (!pidAlive(Number(pid))) return true;
  // The pid runs, but started at another time: a new process that was given the dead one's pid.
  if (start && /^\d+$/.test(start)) {
    const now = processStart(Number(pid));
    return now !== null && now !== start;
  }
  return false;
}
