"use client";
/**
 * The first screen of a study link: the guidelines, the consent statement when there is one, and a
 * start button. This browser keeps a random key per link (localStorage): it is what lets the same
 * Prolific ID come back here, and only here. A returning browser signs in again at once.
 */
import { useEffect, useRef, useState } from "react";
import { signIn } from "next-auth/react";
import { TAP } from "@/components/shell/touch";

type Props = {
  token: string;
  pid: string | null;
  studyId: string | null;
  sessionId: string | null;
  campaignName: string;
  guidelines: React.ReactNode;
  /** Rendered consent statement; null: no consent step. */
  consent: React.ReactNode;
};

function browserKey(token: string): { key: string; returning: boolean } {
  const name = `pal-join-${token}`;
  const have = window.localStorage.getItem(name);
  if (have) return { key: have, returning: true };
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const key = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  window.localStorage.setItem(name, key);
  return { key, returning: false };
}

export function JoinStart({ token, pid, studyId, sessionId, campaignName, guidelines, consent }: Props) {
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tried = useRef(false);

  async function start(withConsent: boolean) {
    setBusy(true);
    setError(null);
    const { key } = browserKey(token);
    const res = await signIn("participant", {
      redirect: false,
      token,
      pid: pid ?? "",
      studyId: studyId ?? "",
      sessionId: sessionId ?? "",
      browserKey: key,
      consent: String(withConsent),
    });
    if (!res || res.error) {
      setBusy(false);
      setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Could not start the study. Try the link again.");
      return;
    }
    // A full navigation, so the server renders the work page with the new session.
    const work = `/join/${token}/work`;
    window.location.assign(work);
  }

  // Coming back in the browser that started: straight to the work (the server knows this PID and key).
  useEffect(() => {
    if (tried.current) return;
    tried.current = true;
    // After this render (not inside the effect's own turn): start() sets state.
    if (window.localStorage.getItem(`pal-join-${token}`)) setTimeout(() => void start(false), 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const ready = !consent || agreed;
  return (
    <div className="mx-auto max-w-2xl space-y-4 px-4 py-6 sm:py-10" data-testid="join-start">
      <header>
        <p className="text-xs uppercase tracking-wide text-slate-500">Study</p>
        <h1 className="text-xl font-semibold text-slate-900">{campaignName}</h1>
      </header>
      <section className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="mb-2 text-sm font-semibold text-slate-900">What you will do</h2>
        {guidelines}
      </section>
      {consent ? (
        <section className="rounded-lg border border-amber-200 bg-amber-50 p-4 sm:p-6" aria-label="Consent">
          <h2 className="mb-2 text-sm font-semibold text-slate-900">Consent</h2>
          {consent}
          <label className="mt-3 flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} className="h-5 w-5" />I have read this and
            agree to take part.
          </label>
        </section>
      ) : null}
      {error ? (
        <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        disabled={!ready || busy}
        onClick={() => void start(agreed)}
        className={`w-full rounded bg-indigo-600 px-4 py-2 font-medium text-white disabled:opacity-40 sm:w-auto ${TAP}`}
      >
        {busy ? "Starting…" : "Start"}
      </button>
    </div>
  );
}
