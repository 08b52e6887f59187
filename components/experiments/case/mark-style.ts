/** The three mark colours of Mem-PAL Figure 4 (yellow: background/need, blue: preference, grey: contradicts), for server and client views. */
export type MarkColour = "need" | "preference" | "contradicts";

export const MARK_STYLE: Record<MarkColour, { label: string; className: string }> = {
  need: { label: "Matches background / need", className: "bg-amber-200" },
  preference: { label: "Fits preference", className: "bg-sky-200" },
  contradicts: { label: "Contradicts preference", className: "bg-slate-300" },
};
