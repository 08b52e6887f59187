"use client";
import { useSyncExternalStore } from "react";

/** The touch-screen query of app/globals.css's `touch:` variant: no hover, a coarse pointer. */
export const TOUCH_QUERY = "(hover: none) and (pointer: coarse)";

const subscribe = (onChange: () => void) => {
  const mq = window.matchMedia(TOUCH_QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
};

/**
 * True on a touch screen, for wording that CSS cannot hide (placeholders, sentences naming keys). False on the
 * server and during hydration, so the first render matches the server's.
 */
export function useTouch(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(TOUCH_QUERY).matches,
    () => false,
  );
}
