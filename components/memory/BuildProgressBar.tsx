"use client";
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import type { MemoryBuild } from "@/lib/assistants/core/build-jobs";
import { useStartBuild, type StartBuildAction } from "./start-build";
import { ActionError } from "@/components/shell/ActionError";

/**
 * A live progress bar for one background memory build: polls its state every second while it
 * runs. The build runs in the server; this only watches it (closing the page does not stop it).
 */
export function BuildProgressBar({
  initial,
  startBuild,
  resumedAs,
}: {
  initial: MemoryBuild;
  startBuild: StartBuildAction;
  resumedAs?: number;
}) {
  const [b, setB] = useState(initial);
  const router = useRouter();
  useEffect(() => {
    if (b.status !== "running") return;
    const t = setTimeout(async () => {
      const r = await fetch(`/api/memory/builds/${b.id}`, { cache: "no-store" });
      if (!r.ok) return;
      const next = (await r.json()) as MemoryBuild;
      setB(next);
      // The memory table below is server-rendered: refresh it whenever a session finishes, so it follows the bar.
      if (next.sessionsDone !== b.sessionsDone || next.status !== b.status) router.refresh();
    }, 1000);
    return () => clearTimeout(t);
  }, [b, router]);
  const pct = b.sessionsTotal ? Math.round((100 * b.sessionsDone) / b.sessionsTotal) : 100;
  const colour =
    b.status === "failed" || b.status === "interrupted"
      ? "bg-rose-500"
      : b.status === "paused"
        ? "bg-amber-500"
        : b.status === "complete"
          ? "bg-emerald-500"
          : "bg-indigo-500";
  return (
    <div className="text-sm" data-testid={`build-${b.id}`} data-status={b.status}>
      <div className="mb-1 flex justify-between text-xs text-slate-600">
        <span>
          #{b.id} {b.method} · {b.datasetName} · {b.users.length === 1 ? `user ${b.users[0]}` : `${b.users.length} users`}
        </span>
        <span data-testid="build-status">
          {b.status} · {b.sessionsDone}/{b.sessionsTotal} sessions{b.current ? ` · ${b.current}` : ""}
        </span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-label="Memory build progress (sessions)"
        aria-valuemin={0}
        aria-valuemax={b.sessionsTotal}
        aria-valuenow={b.sessionsDone}
      >
        <div className={`h-2 ${colour} transition-all`} style={{ width: `${pct}%` }} />
      </div>
      {b.error ? <p className={`mt-1 text-xs ${b.status === "paused" ? "text-amber-800" : "text-rose-700"}`}>{b.error}</p> : null}
      {b.status === "interrupted" ? <p className="mt-1 text-xs text-rose-700">The server stopped during this build.</p> : null}
      {resumedAs !== undefined && b.status !== "running" ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="resumed-as">
          Resumed as #{resumedAs}.
        </p>
      ) : b.status === "interrupted" || b.status === "failed" || b.status === "paused" ? (
        <ResumeButton b={b} startBuild={startBuild} />
      ) : null}
    </div>
  );
}

/** Starts the same build again: the builder skips complete sessions and redoes the unfinished one. */
function ResumeButton({ b, startBuild }: { b: MemoryBuild; startBuild: StartBuildAction }) {
  const [state, action, pending] = useStartBuild(startBuild);
  return (
    <form action={action} className="mt-1 flex items-center gap-2">
      <input type="hidden" name="datasetId" value={b.datasetId} />
      <input type="hidden" name="method" value={b.method} />
      <input type="hidden" name="users" value={b.users.join(",")} />
      <button disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 disabled:opacity-60">
        Resume
      </button>
      <ActionError error={state.error} inline />
    </form>
  );
}
