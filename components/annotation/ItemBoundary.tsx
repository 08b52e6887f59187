"use client";
import { Component, type ReactNode } from "react";

/**
 * An item whose content breaks rendering must not take the queue down with it (the queue would resume
 * on it after a reload, and the annotator would be stuck): the item area shows why, while the
 * controls above (skip, next) keep working.
 */
export class ItemBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  state = { error: null as string | null };
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  render() {
    return this.state.error ? (
      <Unrenderable reason={`this item cannot be shown (${this.state.error}); skip it (S) or move on (→)`} />
    ) : (
      this.props.children
    );
  }
}

export function Unrenderable({ reason }: { reason: string }) {
  return (
    <p
      role="alert"
      data-testid="item-unrenderable"
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {reason[0].toUpperCase() + reason.slice(1)}.
    </p>
  );
}
