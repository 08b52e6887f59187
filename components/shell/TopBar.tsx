import Link from "next/link";
import { SignOutButton } from "./SignOutButton";

export function TopBar({ email, role }: { email: string; role: string }) {
  return (
    <header className="sticky top-0 z-20 flex h-12 items-center justify-between border-b border-slate-200 bg-white px-4">
      <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
        <span className="grid h-6 w-6 place-items-center rounded bg-indigo-600 text-xs text-white">P</span>
        PAL Studio
      </Link>
      <div className="flex items-center gap-3 text-sm">
        <span className="text-slate-600" data-testid="current-user">
          {email}
        </span>
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
