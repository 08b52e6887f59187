"use client";
/**
 * Highlight and annotate: select text inside any block rendered by <Highlightable> and a small bar offers
 * the three colours of Mem-PAL Figure 4 (matches background/need, fits preference, contradicts) with an
 * optional note. Marks are saved per user (POST /api/experiments/:id/marks) and everyone's are shown.
 */
import { createContext, Fragment, useCallback, useContext, useEffect, useRef, useState } from "react";
import { markSegments } from "@/lib/experiments/mark-segments";
import { postJson } from "../api";
import { MARK_STYLE, type MarkColour } from "./mark-style";
import type { CaseMark } from "@/lib/experiments/marks";

/** A mark as the browser gets it (the server's CaseMark without its timestamp). */
export type ClientMark = Omit<CaseMark, "createdAt">;

type Pending = { block: string; start: number; end: number; quote: string; top: number; left: number };
type Ctx = { marks: ClientMark[] };
const MarkContext = createContext<Ctx>({ marks: [] });

/** The block element holding a node (a text node's parent chain up to [data-block]). */
function blockOf(node: Node | null): HTMLElement | null {
  const el = node instanceof HTMLElement ? node : (node?.parentElement ?? null);
  return el?.closest<HTMLElement>("[data-block]") ?? null;
}

export function MarkProvider({
  experimentId,
  task,
  itemKey,
  initial,
  userId,
  isAdmin,
  children,
}: {
  experimentId: number;
  task: string;
  itemKey: string;
  initial: ClientMark[];
  userId: number;
  isAdmin: boolean;
  children: React.ReactNode;
}) {
  const [marks, setMarks] = useState(initial);
  const [pending, setPending] = useState<Pending | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const bar = useRef<HTMLDivElement>(null);

  const onSelect = useCallback((e: Event) => {
    if (bar.current && e.target instanceof Node && bar.current.contains(e.target)) return;
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return;
    const range = sel.getRangeAt(0);
    const block = blockOf(range.startContainer);
    // A selection must stay inside one block: its offsets are counted in that block's text.
    if (!block || block !== blockOf(range.endContainer)) return;
    const before = document.createRange();
    before.selectNodeContents(block);
    before.setEnd(range.startContainer, range.startOffset);
    const start = before.toString().length;
    const quote = range.toString();
    if (!quote.trim()) return;
    const r = range.getBoundingClientRect();
    setError(null);
    setNote("");
    setPending({ block: block.dataset.block!, start, end: start + quote.length, quote, top: r.bottom + 6, left: Math.max(8, r.left) });
  }, []);

  useEffect(() => {
    // By mouse: the selection when the button is let go. By keyboard (issue 44.9): select in a focused block
    // with Shift+arrows, then M or Enter opens the mark bar.
    const onKey = (e: KeyboardEvent) => {
      if ((e.key === "m" || e.key === "M" || e.key === "Enter") && e.target instanceof HTMLElement && e.target.dataset.block) {
        e.preventDefault();
        onSelect(e);
      }
    };
    document.addEventListener("mouseup", onSelect);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mouseup", onSelect);
      document.removeEventListener("keydown", onKey);
    };
  }, [onSelect]);

  const save = async (colour: MarkColour) => {
    if (!pending) return;
    try {
      const { mark } = await postJson<{ mark: ClientMark }>(`/api/experiments/${experimentId}/marks`, {
        task,
        itemKey,
        block: pending.block,
        start: pending.start,
        end: pending.end,
        quote: pending.quote,
        colour,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setMarks((m) => [...m, mark]);
      setPending(null);
      window.getSelection()?.removeAllRanges();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const remove = async (id: number) => {
    try {
      await postJson(`/api/experiments/${experimentId}/marks/${id}`, undefined, "DELETE", "delete the highlight");
      setMarks((m) => m.filter((x) => x.id !== id));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <MarkContext.Provider value={{ marks }}>
      {children}
      {pending ? (
        <div
          ref={bar}
          role="dialog"
          aria-label="Mark the selected passage"
          data-testid="mark-bar"
          className="fixed z-50 w-80 rounded-lg border border-slate-300 bg-white p-2 text-xs shadow-lg"
          style={{ top: Math.min(pending.top, window.innerHeight - 140), left: Math.min(pending.left, window.innerWidth - 340) }}
        >
          <p className="mb-1 line-clamp-2 italic text-slate-600">&ldquo;{pending.quote}&rdquo;</p>
          <input
            // Focus moves to the bar (keyboard users go on with Tab to the colours; Escape-free: Cancel is a button).
            autoFocus
            aria-label="Note (optional)"
            placeholder="Note (optional)"
            className="mb-2 w-full rounded border border-slate-300 px-2 py-1"
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <div className="flex flex-wrap gap-1">
            {(Object.keys(MARK_STYLE) as MarkColour[]).map((c) => (
              <button
                key={c}
                type="button"
                className={`rounded px-2 py-1 ${MARK_STYLE[c].className} hover:ring-1 hover:ring-slate-500`}
                onClick={() => save(c)}
              >
                {MARK_STYLE[c].label}
              </button>
            ))}
            <button type="button" className="ml-auto rounded px-2 py-1 text-slate-500 hover:bg-slate-100" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
          {error ? (
            <p role="alert" className="mt-1 text-rose-700">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      <MarksPanelSlot marks={marks} userId={userId} isAdmin={isAdmin} remove={remove} />
    </MarkContext.Provider>
  );
}

/** The item's marks, everyone's, each with its author; one's own (or any, for an admin) can be removed. */
function MarksPanelSlot({
  marks,
  userId,
  isAdmin,
  remove,
}: {
  marks: ClientMark[];
  userId: number;
  isAdmin: boolean;
  remove: (id: number) => void;
}) {
  return (
    <section className="mt-4 rounded border border-slate-200 bg-white p-3" data-testid="marks-panel">
      <h2 className="mb-1 text-sm font-semibold">Highlights ({marks.length})</h2>
      <p className="mb-2 flex flex-wrap gap-2 text-xs text-slate-600">
        Select text in any block to mark it (by keyboard: Tab to a block, Shift+arrows to select, then M):
        {(Object.keys(MARK_STYLE) as MarkColour[]).map((c) => (
          <span key={c} className={`rounded px-1 ${MARK_STYLE[c].className}`}>
            {MARK_STYLE[c].label}
          </span>
        ))}
      </p>
      <ul className="space-y-1 text-xs">
        {marks.map((m) => (
          <li key={m.id} className="flex items-start gap-2">
            <mark className={`rounded px-1 ${MARK_STYLE[m.colour].className}`}>{m.quote}</mark>
            <span className="text-slate-600">
              {m.note ? `${m.note} · ` : ""}
              <span className="text-slate-500">{m.where}</span> · {m.author}
            </span>
            {m.userId === userId || isAdmin ? (
              <button
                type="button"
                className="ml-auto text-slate-500 hover:text-rose-700"
                aria-label={`Remove mark "${m.quote}"`}
                onClick={() => remove(m.id)}
              >
                ✕
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Text of one block with its marks coloured; selecting inside it offers the mark bar. */
export function Highlightable({ block, text, className = "" }: { block: string; text: string; className?: string }) {
  const { marks } = useContext(MarkContext);
  const mine = marks.filter((m) => m.block === block);
  return (
    // Focusable and caret-navigable so text can be selected without a mouse (Shift+arrows); every edit is
    // refused (the text is the run's record), only the selection matters.
    <span
      data-block={block}
      className={`whitespace-pre-wrap focus:outline-2 focus:outline-indigo-400 ${className}`}
      tabIndex={0}
      role="textbox"
      aria-readonly="true"
      aria-multiline="true"
      aria-label="Text to highlight: select with Shift+arrows, then press M"
      contentEditable
      suppressContentEditableWarning
      spellCheck={false}
      onBeforeInput={(e) => e.preventDefault()}
      onPaste={(e) => e.preventDefault()}
      onCut={(e) => e.preventDefault()}
      onDrop={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        // Deletions do not come as beforeinput in every browser.
        if (e.key === "Backspace" || e.key === "Delete") e.preventDefault();
      }}
    >
      {markSegments(text, mine).map((s, i) =>
        s.mark ? (
          <mark
            key={i}
            className={`rounded-sm ${MARK_STYLE[s.mark.colour].className}`}
            title={`${MARK_STYLE[s.mark.colour].label}${s.mark.note ? `: ${s.mark.note}` : ""} (${s.mark.author})`}
          >
            {s.text}
          </mark>
        ) : (
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </span>
  );
}
