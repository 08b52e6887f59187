"use client";
/**
 * The annotation queue's keyboard (AnnotateQueue): which key does what in which state of the queue, and
 * the scrolling panes that F chooses and J/K, PageUp/PageDown move. The queue owns its state and passes
 * what a key needs; this unit only decides and calls back.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";

/** How far J/K move a pane, in pixels; PageUp/PageDown move it by most of its height. */
const LINE_STEP = 120;

/** What the keys read of the queue, as of the render that handles them. */
export type AnnotateKeyState = {
  /** The skip reason field is open (Enter in it confirms the skip). */
  skipping: boolean;
  /** The completion screen is shown. */
  finished: boolean;
  /** The item on screen is loaded; `unrenderable` when it cannot be shown. */
  item: { unrenderable?: string | null } | null;
  /** There is a queue entry at the current index (an item that cannot be loaded can still be skipped). */
  hasEntry: boolean;
  /** Choice key → value, the same keys on every dimension. */
  choiceKeys: Map<string, string>;
};

/** What the keys do; the queue implements each. */
export type AnnotateKeyActions = {
  toggleHelp(): void;
  closeOverlays(): void;
  toggleGuides(): void;
  /** Chooses `value` on the active dimension. */
  choose(value: string): void;
  submit(): void;
  /** Moves the active dimension by one (down: +1). */
  moveDimension(by: 1 | -1): void;
  /** Moves to the next (+1) or previous (-1) item. */
  move(by: 1 | -1): void;
  /** From the completion screen, opens the item last shown again. */
  reopen(): void;
  startSkip(): void;
  confirmSkip(): void;
  focusComment(): void;
  /** Enter in a comment box: back to the keys, on to the next open dimension. */
  leaveComment(): void;
  nextPane(): void;
  /** Scrolls the chosen pane; false when there is none (the key is left to the page). */
  scrollPane(key: "j" | "k" | "pagedown" | "pageup"): boolean;
};

/** The decision for one key press; `preventDefault` is called where the key is the queue's. */
export function handleAnnotateKey(e: KeyboardEvent, s: AnnotateKeyState, a: AnnotateKeyActions): void {
  const typing = e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement;
  if (typing) {
    if (e.key === "Escape") (e.target as HTMLElement).blur();
    if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLInputElement && s.skipping) {
      e.preventDefault();
      a.confirmSkip();
    }
    // A comment is a line or two: Enter goes on (the next Enter submits), Shift+Enter starts a new line.
    if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLTextAreaElement && e.target.dataset.comment !== undefined) {
      e.preventDefault();
      a.leaveComment();
    }
    return;
  }
  if (e.metaKey || e.ctrlKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k === "?") return a.toggleHelp();
  if (k === "escape") return a.closeOverlays();
  if (k === "g") return (e.preventDefault(), a.toggleGuides());
  if (k === "f") return (e.preventDefault(), a.nextPane());
  if (k === "j" || k === "k" || k === "pagedown" || k === "pageup") {
    // The page's own scroll would move the window under the sticky header; the chosen pane is what the annotator reads.
    if (a.scrollPane(k)) e.preventDefault();
    return;
  }
  if (s.finished) {
    if (k === "arrowleft") return (e.preventDefault(), a.reopen());
    return;
  }
  if (s.item?.unrenderable) {
    // An item that cannot be shown can still be left: next, previous, skip.
    if (k === "arrowright") return (e.preventDefault(), a.move(1));
    if (k === "arrowleft") return (e.preventDefault(), a.move(-1));
    if (k === "s" && s.hasEntry) return (e.preventDefault(), a.startSkip());
    return;
  }
  if (!s.item) return;
  const value = s.choiceKeys.get(k);
  if (value !== undefined) return (e.preventDefault(), a.choose(value));
  if (k === "enter") return (e.preventDefault(), a.submit());
  if (k === "arrowdown") return (e.preventDefault(), a.moveDimension(1));
  if (k === "arrowup") return (e.preventDefault(), a.moveDimension(-1));
  if (k === "arrowright") return (e.preventDefault(), a.move(1));
  if (k === "arrowleft") return (e.preventDefault(), a.move(-1));
  if (k === "s") return (e.preventDefault(), a.startSkip());
  if (k === "c") return (e.preventDefault(), a.focusComment());
}

/**
 * Listens to the window's keys for the queue. The listener is added once and always calls the latest
 * state and actions: keys can arrive faster than React re-renders.
 */
export function useAnnotateKeys(state: AnnotateKeyState, actions: AnnotateKeyActions): void {
  const latest = useRef({ state, actions });
  useLayoutEffect(() => {
    latest.current = { state, actions };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleAnnotateKey(e, latest.current.state, latest.current.actions);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/**
 * The scrolling panes inside `contentRef` (elements marked `data-scroll-pane`, in page order: guidelines,
 * outputs, user information, logs): the chosen one is marked `data-focused` (clamped when the next item
 * has fewer panes), a click on a pane chooses it, F moves to the next and J/K, PageUp/PageDown scroll it.
 */
export function useScrollPanes(contentRef: RefObject<HTMLElement | null>) {
  const [pane, setPane] = useState(0);
  const panes = () => panesIn(contentRef.current);
  useEffect(() => {
    const list = panes();
    list.forEach((p, i) => p.setAttribute("data-focused", String(i === Math.min(pane, list.length - 1))));
  });
  useEffect(() => {
    const el = contentRef.current;
    if (!el) return;
    const onDown = (e: MouseEvent) => {
      const hit = (e.target as HTMLElement).closest("[data-scroll-pane]");
      const i = hit ? panesIn(el).indexOf(hit as HTMLElement) : -1;
      if (i >= 0) setPane(i);
    };
    el.addEventListener("mousedown", onDown);
    return () => el.removeEventListener("mousedown", onDown);
  }, [contentRef]);
  return {
    nextPane: () => setPane((p) => (panes().length ? (p + 1) % panes().length : 0)),
    scrollPane: (key: "j" | "k" | "pagedown" | "pageup") => {
      const body = panes()[pane]?.querySelector<HTMLElement>("[data-scroll-body]");
      if (!body) return false;
      // On a phone the panes are as long as their content (issue 44.2): the page is what scrolls.
      const scrolls = body.scrollHeight > body.clientHeight + 1;
      const height = scrolls ? body.clientHeight : window.innerHeight;
      const step = key === "j" || key === "k" ? LINE_STEP : Math.max(LINE_STEP, height * 0.9);
      (scrolls ? body : window).scrollBy({ top: key === "j" || key === "pagedown" ? step : -step });
      return true;
    },
  };
}

const panesIn = (el: HTMLElement | null) => [...(el?.querySelectorAll<HTMLElement>("[data-scroll-pane]") ?? [])];
