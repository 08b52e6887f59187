import Link from "next/link";
import { SignOutButton } from "./SignOutButton";

/**
 * The bar over every signed-in page. Below sm (640 px) it wraps: the email takes a line of its own
 * under the logo, role and Sign out; below md `menu` (AppShell's button) opens the navigation, and the
 * bar scrolls away with the page (kept in view it would take an eighth of a phone's screen).
 */
export function TopBar({ email, role, menu }: { email: string; role: string; menu?: React.ReactNode }) {
  return (
    <header className="z-20 flex min-h-12 flex-wrap items-center gap-x-3 border-b border-slate-200 bg-white px-4 md:sticky md:top-0">
      {menu}
      <Link href="/" className="flex min-h-11 items-center gap-2 font-semibold tracking-tight text-slate-900">
        <span className="grid h-6 w-6 place-items-center rounded bg-indigo-600 text-xs text-white">P</span>
        PAL Studio
      </Link>
      <span
        className="order-last basis-full truncate pb-1.5 text-xs text-slate-600 sm:order-none sm:ml-auto sm:basis-auto sm:pb-0 sm:text-sm"
        data-testid="current-user"
      >
        {email}
      </span>
      <div className="ml-auto flex items-center gap-3 text-sm sm:ml-0">
        <span
          className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium uppercase tracking-wide text-slate-600"
          data-testid="current-role"
        >
          {role}
        </span>
        <SignOutButton />
      </div>
    </header>
  );
}
