"use client";
import { useState } from "react";
import { signIn } from "next-auth/react";

/** Spends a one-time sign-in link on press: the session starts, then a full navigation to the home page. */
export function SignInLinkButton({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function go() {
    setBusy(true);
    setError(null);
    const res = await signIn("link", { token, redirect: false });
    if (!res || res.error) {
      setBusy(false);
      setError(
        res?.error && res.error !== "CredentialsSignin" ? res.error : "This link could not sign you in. Reload the page to see why.",
      );
      return;
    }
    // The server renders the shell with the new session and sends each role to its home.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load, not a client push: the session cookie is new
    window.location.assign("/");
  }
  return (
    <>
      <button
        type="button"
        onClick={go}
        disabled={busy}
        className="w-full rounded bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
        data-testid="link-sign-in"
      >
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {error ? (
        <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      ) : null}
    </>
  );
}
