"use client";
import { useState } from "react";
import { postJson } from "./api";

/** Stars an item for the case studies. */
export function StarButton({ experimentId, jobId, starred }: { experimentId: number; jobId: number; starred: boolean }) {
  const [on, setOn] = useState(starred);
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={on ? "Unstar item" : "Star item"}
      disabled={busy}
      className={on ? "text-amber-500" : "text-slate-500 hover:text-amber-400"}
      onClick={async () => {
        setBusy(true);
        try {
          const r = await postJson<{ starred: boolean }>(
            `/api/experiments/${experimentId}/jobs/${jobId}`,
            { starred: !on },
            "PATCH",
            "save the star",
          );
          setOn(r.starred);
        } finally {
          setBusy(false);
        }
      }}
    >
      ★
    </button>
  );
}
