"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

type Props = {
  id: string;
  items: Array<{ href: string; label: string }>;
  open: boolean;
  ref?: React.Ref<HTMLElement>;
  onBlur?: React.FocusEventHandler<HTMLElement>;
  /** A link was followed (the drawer closes, also when it leads to the page already shown). */
  onFollow?: () => void;
};

/** The main navigation: a column from md up; below md hidden until the Menu button opens it as a drawer (AppShell). */
export function SideNav({ id, items, open, ref, onBlur, onFollow }: Props) {
  const path = usePathname();
  return (
    <nav
      ref={ref}
      id={id}
      onBlur={onBlur}
      aria-label="Main"
      className={`${open ? "fixed inset-y-0 left-0 z-40 w-64 overflow-y-auto shadow-xl" : "hidden"} shrink-0 border-r border-slate-200 bg-white p-3 md:static md:block md:w-48 md:shadow-none`}
    >
      {/* The list stays in view while long pages scroll. */}
      <ul className="sticky top-3 space-y-1">
        {items.map((i) => {
          const active = path === i.href || path.startsWith(i.href + "/");
          return (
            <li key={i.href}>
              <Link
                href={i.href}
                aria-current={active ? "page" : undefined}
                onClick={onFollow}
                className={`block rounded px-3 py-3 text-sm md:py-1.5 ${active ? "bg-indigo-50 font-medium text-indigo-700" : "text-slate-600 hover:bg-slate-100"}`}
              >
                {i.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
