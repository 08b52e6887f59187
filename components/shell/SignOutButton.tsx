"use client";
import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => signOut({ callbackUrl: "/login" })}
      className="rounded px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
    >
      Sign out
    </button>
  );
}
