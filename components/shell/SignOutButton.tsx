"use client";
import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => signOut({ callbackUrl: "/login" })}
      className="min-h-11 rounded px-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 md:min-h-8"
    >
      Sign out
    </button>
  );
}
