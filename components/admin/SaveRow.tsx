/** A settings form's Save button (disabled while it saves) and what the last save said. */
export function SaveRow({ label, pending, ok }: { label: string; pending: boolean; ok?: string }) {
  return (
    <div className="flex items-center gap-3">
      <button
        disabled={pending}
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        {label}
      </button>
      {ok ? (
        <span role="status" className="text-xs text-emerald-700">
          {ok}
        </span>
      ) : null}
    </div>
  );
}
