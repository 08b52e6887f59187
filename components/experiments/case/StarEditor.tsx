"use client";
import { useState } from "react";
import { postJson } from "../api";

type Star = { starred: boolean; note: string | null; tags: string[] };

/**
 * Stars an item as a case study with a note (the figure's caption) and tags to filter the case studies by.
 * A star belongs to one method's answer (a job): `method` names it where several are shown side by side,
 * so the note is not read as the whole comparison's (issue 44.8).
 */
export function StarEditor({
  experimentId,
  jobId,
  initial,
  method,
}: {
  experimentId: number;
  jobId: number;
  initial: Star;
  method?: string;
}) {
  const [star, setStar] = useState(initial);
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState(initial.note ?? "");
  const [tags, setTags] = useState(initial.tags.join(", "));
  const [error, setError] = useState<string | null>(null);
  const save = async (starred: boolean) => {
    setError(null);
    try {
      const tagList = tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const r = await postJson<Star>(
        `/api/experiments/${experimentId}/jobs/${jobId}`,
        { starred, note, tags: tagList },
        "PATCH",
        "save the star",
      );
      setStar(r);
      setOpen(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    // The form opens in the page's flow below the button, never over the sidebar (it floated and covered it).
    <div data-testid="star-editor">
      <button
        type="button"
        className={`rounded border px-2 py-1 text-xs ${star.starred ? "border-amber-300 bg-amber-50 text-amber-700" : "border-slate-300 hover:bg-slate-50"}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {star.starred ? "★ Starred" : "☆ Star as case study"}
        {method ? <span className="font-normal"> ({method}&apos;s answer)</span> : null}
      </button>
      {star.starred && (star.note || star.tags.length) && !open ? (
        <p className="mt-1 max-w-xs text-right text-xs text-slate-600" data-testid="star-note">
          {method ? <span className="font-medium">On {method}&apos;s answer: </span> : null}
          {star.note}
          {star.tags.length ? ` · ${star.tags.map((t) => `#${t}`).join(" ")}` : ""}
        </p>
      ) : null}
      {open ? (
        <form
          aria-label="Case study star"
          className="mt-1 w-80 max-w-full space-y-2 rounded-lg border border-slate-300 bg-white p-3 text-xs shadow-lg"
          onSubmit={(e) => {
            e.preventDefault();
            save(true);
          }}
        >
          <label className="block">
            Note
            <textarea
              className="mt-0.5 w-full rounded border border-slate-300 px-2 py-1"
              rows={3}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <label className="block">
            Tags (comma-separated)
            <input
              className="mt-0.5 w-full rounded border border-slate-300 px-2 py-1"
              value={tags}
              onChange={(e) => setTags(e.target.value)}
            />
          </label>
          <div className="flex gap-2">
            <button type="submit" className="rounded bg-indigo-600 px-2 py-1 text-white hover:bg-indigo-700">
              {star.starred ? "Save star" : "Star"}
            </button>
            {star.starred ? (
              <button type="button" className="rounded border border-slate-300 px-2 py-1" onClick={() => save(false)}>
                Unstar
              </button>
            ) : null}
            <button type="button" className="ml-auto text-slate-500" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
          {error ? (
            <p role="alert" className="text-rose-700">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
