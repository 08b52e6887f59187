"use client";
import { useEffect } from "react";
import { hashTargetId } from "@/lib/datasets/browse/hash";

/**
 * Makes in-page deep links land: on load and on every hash change, opens the <details> that the hash
 * names (or that contains it) and scrolls it into view. `fallbackId` is used when there is no hash
 * (a topic route such as …/topics/topic-2 highlights and scrolls to its topic).
 */
export function HashTarget({ fallbackId }: { fallbackId?: string }) {
  useEffect(() => {
    const go = () => {
      const id = hashTargetId(window.location.hash) || fallbackId;
      if (!id) return;
      const el = document.getElementById(id);
      if (!el) return;
      for (let d: HTMLElement | null = el; d; d = d.parentElement) if (d instanceof HTMLDetailsElement) d.open = true;
      el.scrollIntoView({ block: "start" });
      if (el.tabIndex < 0) el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    };
    go();
    window.addEventListener("hashchange", go);
    return () => window.removeEventListener("hashchange", go);
  }, [fallbackId]);
  return null;
}
