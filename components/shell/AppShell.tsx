"use client";
import { useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import { TopBar } from "./TopBar";
import { SideNav } from "./SideNav";

type Props = { email: string; role: string; items: Array<{ href: string; label: string }>; children: React.ReactNode };

/**
 * The signed-in frame: top bar, navigation, page. From md (768 px) up the navigation is a fixed
 * column; below it collapses behind a Menu button and opens as a drawer over the page (Escape or a
 * click outside closes it and gives focus back to the button; following a link or tabbing out of it
 * closes it too).
 */
export function AppShell({ email, role, items, children }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const path = usePathname();
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    // A link was followed: the drawer has done its job (state adjusted while rendering, not in an effect).
    setShownPath(path);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    nav.current?.querySelector<HTMLElement>("a")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      // Before the page's own keys (the annotation queue also listens for Escape).
      e.stopImmediatePropagation();
      setOpen(false);
      button.current?.focus();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open]);
  return (
    <div className="flex min-h-screen flex-col">
      {/* The first stop of Tab: past the top bar and navigation to the page (WCAG 2.4.1). */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:text-indigo-700 focus:shadow"
      >
        Skip to content
      </a>
      <TopBar
        email={email}
        role={role}
        menu={
          <button
            ref={button}
            type="button"
            aria-expanded={open}
            aria-controls="main-nav"
            onClick={() => setOpen((o) => !o)}
            className="-ml-2 flex min-h-11 items-center gap-1.5 rounded px-2 text-sm text-slate-700 hover:bg-slate-100 md:hidden"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.75">
              {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
            </svg>
            Menu
          </button>
        }
      />
      <div className="flex flex-1">
        {open ? <div aria-hidden="true" className="fixed inset-0 z-30 bg-slate-900/30 md:hidden" onClick={() => setOpen(false)} /> : null}
        <SideNav
          ref={nav}
          id="main-nav"
          items={items}
          open={open}
          onFollow={() => setOpen(false)}
          // Tabbing out of the open drawer closes it, so focus never lands on a page hidden behind it.
          onBlur={(e) => {
            const to = e.relatedTarget as Node | null;
            if (open && to && !nav.current?.contains(to) && to !== button.current) setOpen(false);
          }}
        />
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
