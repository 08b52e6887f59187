"use client";
/**
 * The annotation queue: one item at a time, keyboard first. Keys: the choice keys set the active
 * dimension and move to the next one; ↑/↓ change dimension; Enter submits; ←/→ move between items;
 * S skips with a reason; C comments; G shows the guidelines; F moves between the scrolling panes (dialogues,
 * logs, the user's information) and J/K, PageUp/PageDown scroll the chosen one; ? lists the keys. Drafts
 * autosave; the next item is prefetched so it shows at once; a submission carries a client-generated id,
 * so a retry is stored once. An item is applied to the screen once per move to it: a later load of the same
 * item (a refetch, a second answer naming it) never resets what the person has started, and choices not yet
 * submitted are kept per item, so moving away and back keeps them too. A choice the guidelines want
 * explained (a "1" on the 1–3 scale) opens that dimension's comment box, focused; Enter there goes on, and a
 * submit with such a choice and no comment asks once before it goes through. After the last item a completion screen says what is left. What each key
 * does is decided in useAnnotateKeys.ts; this component owns the state the keys change.
 * On a phone (below md) the item is one column read top to bottom and the decision (choices, Submit) is a bar
 * fixed at the bottom of the screen; a touch screen shows no keyboard hints (issue 44.2).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { PresentedItem, QueueEntry } from "@/lib/annotation/queue";
import { ItemContent, itemHeadline } from "./ItemContent";
import { ScrollPane } from "./Value";
import { useAnnotateKeys, useScrollPanes } from "./useAnnotateKeys";
import { ItemBoundary, Unrenderable } from "./ItemBoundary";
import { QueueCompletion } from "./QueueCompletion";
import { TAP } from "@/components/shell/touch";
import { useTouch } from "@/components/shell/useTouch";

/**
 * `guidelines` arrives rendered by the server (Markdown is rendered there, so its parser never ships to
 * the annotator's browser); null when the campaign has none.
 */
type Props = {
  campaignName: string;
  guidelines: React.ReactNode;
  entries: QueueEntry[];
  resumeAt: number;
  /**
   * Crowd participants (app/join): their items are served one at a time, so when nothing is pending the
   * page goes here (the server serves the next item, or the finish screen) instead of the completion screen.
   */
  nextUrl?: string;
  /** The version of the guidelines this page shows: each label records it (a page open across an edit sends the old one). */
  guidelinesVersion?: number;
  /** With `nextUrl`: a POST here answers the next item ({assignmentId}) or where to go ({url}), without a page load. */
  nextApi?: string;
};

const newId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

async function api(url: string, init?: RequestInit, tries = 3): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      const r = await fetch(url, { ...init, headers: { "content-type": "application/json" } });
      if (r.status >= 500 && i < tries) throw new Error(`HTTP ${r.status}`);
      return r;
    } catch (e) {
      if (i >= tries) throw e;
      await new Promise((res) => setTimeout(res, 300 * i));
    }
  }
}

export function AnnotateQueue({ campaignName, guidelines, guidelinesVersion, entries: initial, resumeAt, nextUrl, nextApi }: Props) {
  const [entries, setEntries] = useState(initial);
  const [index, setIndex] = useState(resumeAt);
  const [item, setItem] = useState<PresentedItem | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const [active, setActive] = useState(0);
  const [help, setHelp] = useState(false);
  const [skipping, setSkipping] = useState(false);
  const [skipReason, setSkipReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<"saved" | "saving" | null>(null);
  // A submit held back once because a choice that asks for a comment has none: the line saying so.
  const [nudge, setNudge] = useState<string | null>(null);
  // The guidelines are open on the first item of a fresh queue, then one key (G) away.
  const [guidesOpen, setGuidesOpen] = useState(resumeAt === 0 && initial.every((e) => e.status === "pending"));
  // Every item done or skipped: the completion screen, until the annotator opens an item again.
  const [finished, setFinished] = useState(initial.length > 0 && initial.every((e) => e.status !== "pending"));
  // Bumped on every move, so that opening the item already at `index` (from the completion screen) loads it afresh.
  const [visit, setVisit] = useState(0);
  const contentRef = useRef<HTMLDivElement>(null);
  const cache = useRef(new Map<number, Promise<PresentedItem>>());
  const since = useRef(0); // set when an item is shown
  const submissionId = useRef(newId());
  const dirty = useRef(false);
  const nudged = useRef(false);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const [barHeight, setBarHeight] = useState(0);
  const touch = useTouch();
  // Keys can arrive faster than React re-renders: choices and submit read these refs, which are
  // updated synchronously, never a render's possibly stale copy.
  const valuesRef = useRef(values);
  const commentsRef = useRef(comments);
  const activeRef = useRef(active);
  const busyRef = useRef(false);
  const putValues = (v: Record<string, string>) => {
    valuesRef.current = v;
    setValues(v);
  };
  const putComments = (c: Record<string, string>) => {
    commentsRef.current = c;
    setComments(c);
  };
  const putActive = (a: number) => {
    activeRef.current = a;
    setActive(a);
  };

  const load = useCallback((assignmentId: number, fresh = false) => {
    if (fresh || !cache.current.has(assignmentId)) {
      cache.current.set(
        assignmentId,
        api(`/api/assignments/${assignmentId}`).then(async (r) => {
          if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`);
          return r.json();
        }),
      );
    }
    return cache.current.get(assignmentId)!;
  }, []);

  const entry = entries[index];
  const entryId = entry?.assignmentId;
  // The assignment whose item may be shown, changed in the same event as the move to it (`show`), not at the
  // commit that draws it: a load for another entry that lands before that commit (or before the old effect's
  // cleanup) is dropped, never shown or labelled under the new entry. Null on the completion screen.
  const wanted = useRef<number | null>(initial[resumeAt]?.assignmentId ?? null);
  // The assignment whose item has been applied since the last move: a second load of it changes nothing.
  const applied = useRef<number | null>(null);
  // What was chosen and written per item and not yet submitted: an item shown again starts from it.
  const drafts = useRef(new Map<number, { values: Record<string, string>; comments: Record<string, string> }>());

  // Loads and applies the entry's item, once per move (`visit`): keyed by the assignment id, not the entry
  // object, so a status change of an entry (a submit) does not load and apply anything again.
  useEffect(() => {
    if (entryId === undefined) return;
    let live = true;
    load(entryId).then(
      (it) => {
        if (!live || wanted.current !== entryId || applied.current === entryId) return;
        applied.current = entryId;
        const draft = drafts.current.get(entryId);
        const values = draft?.values ?? it.values;
        setItem(it);
        putValues(values);
        putComments(draft?.comments ?? it.comments);
        putActive(
          Math.max(
            0,
            it.dimensions.findIndex((d) => !values[d.key]),
          ),
        );
        since.current = Date.now();
        submissionId.current = newId();
        // A draft kept here may not have reached the server (its autosave was cancelled by the move): save it.
        dirty.current = !!draft;
        nudged.current = false;
        setNudge(null);
        setSaved(null);
        setError(null);
      },
      (e) => live && wanted.current === entryId && setError(String(e.message ?? e)),
    );
    return () => {
      live = false;
    };
  }, [entryId, visit, load]);

  // Prefetch the neighbours so moving on is instant.
  const prevId = entries[index - 1]?.assignmentId;
  const nextId = entries[index + 1]?.assignmentId;
  useEffect(() => {
    for (const id of [nextId, prevId]) if (id !== undefined) load(id).catch(() => {});
  }, [prevId, nextId, load]);

  const takeMs = () => {
    const now = Date.now();
    const ms = now - since.current;
    since.current = now;
    return ms;
  };

  // Draft autosave, debounced.
  useEffect(() => {
    if (!item || !dirty.current) return;
    setSaved("saving");
    const t = setTimeout(() => {
      api(`/api/assignments/${item.assignmentId}`, { method: "PATCH", body: JSON.stringify({ draft: { values, comments }, ms: takeMs() }) })
        .then((r) => setSaved(r.ok ? "saved" : null))
        .catch(() => setSaved(null));
    }, 600);
    return () => clearTimeout(t);
  }, [values, comments, item]);

  const dims = item?.dimensions ?? [];
  const complete = dims.length > 0 && dims.every((d) => values[d.key]);
  const done = entries.filter((e) => e.status === "done").length;
  const skipped = entries.filter((e) => e.status === "skipped").length;

  /** Moves to `list[to]`: the one place the entry on screen changes, so `wanted` changes with it. */
  const show = (list: QueueEntry[], to: number) => {
    wanted.current = list[to]?.assignmentId ?? null;
    applied.current = null;
    setFinished(false);
    setSkipping(false); // a skip begun on the item left behind is not this item's
    setItem(null);
    setIndex(to);
    setVisit((v) => v + 1);
  };

  const go = (to: number) => {
    if (to < 0 || to >= entries.length) return;
    show(entries, to);
  };

  const markAndAdvance = (status: QueueEntry["status"], change: Partial<QueueEntry> = {}) => {
    if (!entry) return;
    const assignmentId = entry.assignmentId;
    dirty.current = false;
    setSaved(null);
    cache.current.delete(assignmentId);
    drafts.current.delete(assignmentId); // stored: shown again, it starts from what the server has
    const next = entries.map((e, i) => (i === index ? { ...e, status, ...change } : e));
    setEntries(next);
    const after = next.findIndex((e, i) => i > index && e.status === "pending");
    const before = next.findIndex((e) => e.status === "pending");
    const to = after >= 0 ? after : before;
    if (to >= 0) show(next, to);
    else if (nextUrl) void serveNext(next, nextUrl);
    else {
      // Nothing pending: the completion screen. Only the cache is refreshed here; an item opened from the
      // screen is loaded by the effect when it is opened (nothing is wanted until then).
      wanted.current = null;
      setFinished(true);
      setItem(null);
      load(assignmentId, true).catch(() => {});
    }
  };

  /** Crowd participants: the next item served to them is appended; none left, or any failure: the page decides. */
  const serveNext = async (list: QueueEntry[], fallback: string) => {
    try {
      if (nextApi) {
        const r = await api(nextApi, { method: "POST", body: "{}" });
        const b = (await r.json().catch(() => ({}))) as { assignmentId?: number };
        if (r.ok && typeof b.assignmentId === "number") {
          // Already on screen (a second submit asked again and was served the same item): stay on it as it is.
          if (b.assignmentId === wanted.current) return;
          const at = list.findIndex((e) => e.assignmentId === b.assignmentId);
          const grown =
            at >= 0 ? list : [...list, { assignmentId: b.assignmentId, status: "pending" as const, skipReason: null, comments: 0 }];
          setEntries(grown);
          show(grown, at >= 0 ? at : list.length);
          return;
        }
      }
    } catch {
      /* the page load below serves it */
    }
    window.location.assign(fallback);
  };

  /** The first dimension whose choice asks for a comment that is still empty, or -1. */
  const uncommented = (v: Record<string, string>, c: Record<string, string>) =>
    dims.findIndex((d) => d.choices.some((x) => x.value === v[d.key] && x.asksComment) && !c[d.key]?.trim());

  const submit = async () => {
    const current = valuesRef.current;
    if (!item || busyRef.current || !dims.length || !dims.every((d) => current[d.key])) return;
    // Only the item of the entry on screen is submitted, never one left over from the entry before.
    if (item.assignmentId !== wanted.current) return;
    // Strongly prompted, not required (docs/annotation.md): the first submit without the comment stops
    // on it; a second goes through.
    const missing = uncommented(current, commentsRef.current);
    if (missing >= 0 && !nudged.current) {
      nudged.current = true;
      putActive(missing);
      setNudge(
        touch
          ? `The guidelines ask for a comment on ${dims[missing].title}: write one in its box, or tap Submit again to send it without one.`
          : `The guidelines ask for a comment on ${dims[missing].title}: press C to write one, or Enter again to submit without it.`,
      );
      return;
    }
    busyRef.current = true;
    setBusy(true);
    try {
      const r = await api(`/api/assignments/${item.assignmentId}`, {
        method: "POST",
        body: JSON.stringify({
          action: "submit",
          submissionId: submissionId.current,
          values: current,
          comments: commentsRef.current,
          ms: takeMs(),
          guidelineVersion: guidelinesVersion,
        }),
      });
      if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`);
      const commented = Object.values(commentsRef.current).filter((c) => c.trim()).length;
      setNudge(null);
      markAndAdvance("done", { skipReason: null, comments: commented });
    } catch (e) {
      setError(`Not saved: ${(e as Error).message}. Press Enter to try again.`);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const skip = async () => {
    // From the queue entry, not the loaded item: an item that cannot be loaded or shown can still be skipped.
    // Not while this item's submit is in flight: it is being labelled, and the queue moves on when it lands.
    if (!entry || !skipReason.trim() || busyRef.current) return;
    const r = await api(`/api/assignments/${entry.assignmentId}`, {
      method: "POST",
      body: JSON.stringify({ action: "skip", reason: skipReason, ms: takeMs() }),
    });
    if (!r.ok) return setError((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`);
    setSkipping(false);
    setSkipReason("");
    markAndAdvance("skipped", { skipReason: skipReason.trim() });
  };

  /** The dimension after `dimIndex` still without a choice (else simply the next one). */
  const nextOpenAfter = (dimIndex: number, v: Record<string, string>) => {
    const nextOpen = dims.findIndex((x, i) => i > dimIndex && !v[x.key]);
    return nextOpen >= 0 ? nextOpen : Math.min(dimIndex + 1, dims.length - 1);
  };

  /** Keeps the item's unsubmitted choices and comments (see `drafts`). */
  const keepDraft = (values: Record<string, string>, comments: Record<string, string>) => {
    if (item) drafts.current.set(item.assignmentId, { values, comments });
  };

  const choose = (dimIndex: number, value: string) => {
    const d = dims[dimIndex];
    // A key pressed after a move, before the next item is drawn, is not for the item still on screen.
    if (!d || item?.assignmentId !== wanted.current) return;
    dirty.current = true;
    submissionId.current = newId();
    const nextValues = { ...valuesRef.current, [d.key]: value };
    putValues(nextValues);
    keepDraft(nextValues, commentsRef.current);
    if (d.choices.some((c) => c.value === value && c.asksComment) && !commentsRef.current[d.key]?.trim()) {
      // Stay on this dimension and open its comment box now (rendered before focusing it), so the reason
      // is written while it is fresh. Other choices keep the keyboard moving.
      flushSync(() => putActive(dimIndex));
      commentRef.current?.focus();
      return;
    }
    nudged.current = false;
    setNudge(null);
    putActive(nextOpenAfter(dimIndex, nextValues));
  };

  const keyMap = useMemo(() => new Map((dims[0]?.choices ?? []).map((c) => [c.key, c.value])), [dims]);

  // The fixed bar of a phone covers the page's end: the page gets as much room below it as the bar is tall.
  useEffect(() => {
    const bar = barRef.current;
    if (!bar || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => setBarHeight(getComputedStyle(bar).position === "fixed" ? bar.offsetHeight : 0));
    ro.observe(bar);
    return () => ro.disconnect();
  }, [finished]);

  const { nextPane, scrollPane } = useScrollPanes(contentRef);
  useAnnotateKeys(
    { skipping, finished, item, hasEntry: !!entry, choiceKeys: keyMap },
    {
      toggleHelp: () => setHelp((h) => !h),
      closeOverlays: () => (setHelp(false), setSkipping(false), setGuidesOpen(false)),
      toggleGuides: () => setGuidesOpen((g) => !g),
      choose: (value) => choose(activeRef.current, value),
      submit: () => void submit(),
      moveDimension: (by) => putActive(by > 0 ? Math.min(activeRef.current + 1, dims.length - 1) : Math.max(activeRef.current - 1, 0)),
      move: (by) => go(index + by),
      reopen: () => go(index),
      startSkip: () => setSkipping(true),
      confirmSkip: () => void skip(),
      focusComment: () => commentRef.current?.focus(),
      leaveComment: () => {
        commentRef.current?.blur();
        putActive(nextOpenAfter(activeRef.current, valuesRef.current));
      },
      nextPane,
      scrollPane,
    },
  );

  const guidesPane = (
    <ScrollPane title={touch ? "Guidelines" : "Guidelines — G to hide"} maxHeight="max-h-[40vh] overflow-y-auto">
      {guidelines ?? <p className="text-slate-500">This campaign has no guidelines.</p>}
    </ScrollPane>
  );
  // Kinds that compare two outputs get a side panel (user information, guidelines) beside them.
  const sideLayout = !!item && item.kind !== "session-quality" && item.kind !== "output-rating" && item.kind !== "answer-correctness";
  const pct = entries.length ? Math.round(((done + skipped) / entries.length) * 100) : 0;
  return (
    <div className="space-y-3" data-testid="annotate-queue" style={barHeight ? { paddingBottom: barHeight } : undefined}>
      {/* Sticky from md up; on a phone the header scrolls away with the page and the decision below is fixed at the bottom. */}
      <div className="-mx-4 -mt-4 border-b border-slate-200 bg-white/95 px-4 py-3 md:sticky md:backdrop-blur md:top-12 md:z-10 md:-mx-6 md:-mt-6 md:px-6">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <div className="min-w-0 basis-full sm:flex-1 sm:basis-auto">
            <p className="truncate text-xs text-slate-500">{campaignName}</p>
            <p className="font-medium text-slate-900 sm:truncate" data-testid="item-headline">
              {finished
                ? "All items are through"
                : item
                  ? item.unrenderable
                    ? "This item cannot be shown"
                    : itemHeadline(item.kind, item.content)
                  : error
                    ? ""
                    : "Loading…"}
            </p>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span data-testid="progress" className="tabular-nums text-slate-700">
              {done} / {entries.length} done{skipped ? ` · ${skipped} skipped` : ""}
            </span>
            {finished ? null : <span className="text-xs text-slate-500">item {index + 1}</span>}
            <span className="w-14 text-xs text-slate-500" aria-live="polite">
              {saved === "saving" ? "saving…" : saved === "saved" ? "draft saved" : ""}
            </span>
            <button
              type="button"
              onClick={() => setGuidesOpen((g) => !g)}
              aria-pressed={guidesOpen}
              className={`inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded border border-slate-300 px-2 py-0.5 text-xs ${TAP}`}
            >
              Guidelines <kbd className="font-mono touch:hidden">G</kbd>
            </button>
            <button
              type="button"
              onClick={() => setHelp((h) => !h)}
              className={`shrink-0 whitespace-nowrap rounded border border-slate-300 px-2 py-0.5 text-xs touch:hidden ${TAP}`}
              aria-label="Keyboard shortcuts"
            >
              ?
            </button>
          </div>
        </div>
        <div className="mt-2 h-1 w-full rounded bg-slate-100">
          <div className="h-1 rounded bg-indigo-500" style={{ width: `${pct}%` }} />
        </div>
        {/* The decision: in the sticky header from md up; on a phone a bar fixed at the bottom of the screen. */}
        <div
          ref={barRef}
          data-testid="decision-bar"
          className={`max-md:fixed max-md:inset-x-0 max-md:bottom-0 max-md:z-20 max-md:max-h-[70vh] max-md:overflow-y-auto max-md:border-t max-md:border-slate-200 max-md:bg-white/95 max-md:px-4 max-md:pb-2 max-md:shadow-[0_-2px_8px_rgba(15,23,42,0.08)] max-md:backdrop-blur ${finished ? "hidden" : ""}`}
        >
          {item && !finished && !item.unrenderable ? (
            <div className="mt-3 grid gap-2 max-md:mt-2 max-md:gap-1.5 md:grid-cols-2" role="group" aria-label="Your judgment">
              {dims.map((d, i) => {
                const asks = d.choices.some((c) => c.value === values[d.key] && c.asksComment);
                const wanting = asks && !comments[d.key]?.trim();
                return (
                  <fieldset
                    key={d.key}
                    onClick={() => putActive(i)}
                    className={`min-w-0 rounded-md border px-3 py-2 max-md:px-2 max-md:py-1 ${i === active ? "border-indigo-500 ring-2 ring-indigo-200" : "border-slate-200"}`}
                    data-testid={`dimension-${d.key}`}
                  >
                    <legend className="px-1 text-xs font-semibold text-slate-700">{d.title}</legend>
                    {/* The question is in the guidelines; on a phone the bar keeps to the choices. */}
                    <p className="mb-1.5 text-xs text-slate-500 max-md:hidden">{d.question}</p>
                    <div className="flex flex-wrap gap-1.5 max-md:grid max-md:grid-cols-3">
                      {d.choices.map((c) => (
                        <button
                          key={c.value}
                          type="button"
                          aria-pressed={values[d.key] === c.value}
                          onClick={() => choose(i, c.value)}
                          className={`rounded border px-2 py-1 text-xs max-md:px-1 max-md:leading-tight ${TAP} ${values[d.key] === c.value ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:border-indigo-400"}`}
                        >
                          {c.key === c.value ? (
                            // A rating's key is its value (1–3): shown on every screen, as the value.
                            <span className="mr-1 font-mono font-semibold">{c.value}</span>
                          ) : (
                            <kbd className="mr-1 font-mono font-semibold uppercase touch:hidden">{c.key}</kbd>
                          )}
                          {c.label}
                        </button>
                      ))}
                    </div>
                    {i === active ? (
                      <textarea
                        ref={commentRef}
                        data-comment
                        aria-label={`Comment on ${d.title}`}
                        value={comments[d.key] ?? ""}
                        onChange={(e) => {
                          dirty.current = true;
                          submissionId.current = newId();
                          const next = { ...commentsRef.current, [d.key]: e.target.value };
                          putComments(next);
                          keepDraft(valuesRef.current, next);
                        }}
                        placeholder={
                          asks
                            ? `Why this rating? The guidelines ask for a comment.${touch ? "" : " Enter to go on"}`
                            : touch
                              ? "Comment (optional)"
                              : "Comment (optional) — press C, Enter to go on"
                        }
                        rows={asks ? 2 : 1}
                        className={`mt-2 w-full resize-y rounded border px-2 py-1 text-base max-md:mt-1.5 md:text-xs ${wanting ? "border-amber-400 bg-amber-50" : "border-slate-200"}`}
                      />
                    ) : comments[d.key] ? (
                      <p className="mt-1 truncate text-xs text-slate-500">“{comments[d.key]}”</p>
                    ) : wanting ? (
                      <p className="mt-1 text-xs text-amber-700">No comment yet: the guidelines ask for one on this rating.</p>
                    ) : null}
                  </fieldset>
                );
              })}
            </div>
          ) : null}
          {nudge && !finished ? (
            <p role="alert" className="mt-2 text-xs text-amber-800" data-testid="comment-nudge">
              {nudge}
            </p>
          ) : null}
          <div className={`mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500 ${finished ? "hidden" : ""}`}>
            <button
              type="button"
              disabled={!complete || busy || !item?.campaignOpen || !!item?.unrenderable}
              onClick={() => void submit()}
              className={`rounded bg-indigo-600 px-3 py-1 font-medium text-white disabled:opacity-40 ${TAP}`}
            >
              {nudge ? "Submit without comment" : "Submit"} <kbd className="font-mono touch:hidden">↵</kbd>
            </button>
            <button
              type="button"
              onClick={() => go(index - 1)}
              disabled={index === 0}
              className={`rounded border border-slate-300 px-2 py-1 disabled:opacity-40 ${TAP}`}
            >
              ← prev
            </button>
            <button
              type="button"
              onClick={() => go(index + 1)}
              disabled={index >= entries.length - 1}
              className={`rounded border border-slate-300 px-2 py-1 disabled:opacity-40 ${TAP}`}
            >
              next →
            </button>
            <button type="button" onClick={() => setSkipping(true)} className={`rounded border border-slate-300 px-2 py-1 ${TAP}`}>
              Skip<span className="touch:hidden"> (S)</span>
            </button>
            {item?.status === "done" ? (
              <span className="text-emerald-700" data-testid="item-status">
                submitted — change and {touch ? "Submit" : "press Enter"} to edit
              </span>
            ) : null}
            {item?.status === "skipped" ? (
              <span className="text-amber-700" data-testid="item-status">
                skipped: {item.skipReason}
              </span>
            ) : null}
            {!item?.campaignOpen && item ? <span className="text-rose-700">this campaign is closed</span> : null}
            {error ? (
              <span role="alert" className="text-rose-700">
                {error}
              </span>
            ) : null}
          </div>
          {skipping ? (
            <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
              <input
                autoFocus
                value={skipReason}
                onChange={(e) => setSkipReason(e.target.value)}
                placeholder={touch ? "Why skip this item?" : "Why skip this item? (Enter to confirm, Esc to cancel)"}
                className="min-h-11 min-w-0 flex-1 basis-56 rounded border border-slate-300 px-2 py-1 text-base md:min-h-0 md:text-sm"
                aria-label="Skip reason"
              />
              <button
                type="button"
                onClick={() => void skip()}
                className={`rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs ${TAP}`}
              >
                Skip item
              </button>
            </div>
          ) : null}
        </div>
      </div>
      {help ? (
        <div role="dialog" aria-label="Keyboard shortcuts" className="rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm">
          <ul className="grid gap-1 sm:grid-cols-2">
            {(dims[0]?.choices ?? []).map((c) => (
              <li key={c.key}>
                <kbd className="font-mono font-semibold uppercase">{c.key}</kbd> {c.label}
              </li>
            ))}
            <li>
              <kbd>↑ ↓</kbd> change dimension
            </li>
            <li>
              <kbd>↵ Enter</kbd> submit
            </li>
            <li>
              <kbd>← →</kbd> previous / next item
            </li>
            <li>
              <kbd>S</kbd> skip with a reason
            </li>
            <li>
              <kbd>C</kbd> comment on the dimension (Enter: back to the keys; Shift+Enter: a new line)
            </li>
            <li>
              <kbd>G</kbd> show / hide the guidelines
            </li>
            <li>
              <kbd>F</kbd> next scrolling pane · <kbd>J</kbd>/<kbd>K</kbd> scroll it · <kbd>PgDn</kbd>/<kbd>PgUp</kbd> a page
            </li>
            <li>
              <kbd>?</kbd> this list · <kbd>Esc</kbd> close
            </li>
          </ul>
        </div>
      ) : null}
      <div className="min-h-[60vh]" ref={contentRef}>
        {finished ? (
          <QueueCompletion entries={entries} open={(i) => go(i)} guides={guidesOpen ? guidesPane : null} />
        ) : item?.unrenderable ? (
          <Unrenderable reason={item.unrenderable} />
        ) : item ? (
          <ItemBoundary key={item.assignmentId}>
            {sideLayout ? (
              <ItemContent
                kind={item.kind}
                content={item.content}
                left={item.left}
                right={item.right}
                aside={guidesOpen ? guidesPane : null}
              />
            ) : (
              <div className="space-y-3">
                {guidesOpen ? guidesPane : null}
                <ItemContent kind={item.kind} content={item.content} left={item.left} right={item.right} />
              </div>
            )}
          </ItemBoundary>
        ) : null}
      </div>
    </div>
  );
}
