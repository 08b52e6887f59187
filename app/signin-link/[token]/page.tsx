import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { currentUser } from "@/lib/auth/session";
import { homeFor } from "@/lib/auth/nav";
import { linkRefusal, signInLinkState } from "@/lib/users/sign-in-links";
import { SignInLinkButton } from "@/components/auth/SignInLinkButton";

export const metadata: Metadata = { title: "Sign-in link" };

/**
 * A one-time sign-in link (issue 44.7), public: it says whose account the link opens and signs in on a
 * button press, so that a link preview (a chat or mail client fetching the page) does not spend it; a used,
 * expired or revoked link gets a page saying so.
 */
export default async function SignInLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const s = signInLinkState(getDb(), token);
  const me = await currentUser();
  return (
    <div className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="grid h-7 w-7 place-items-center rounded bg-indigo-600 text-sm text-white">P</span>
          PAL Studio
        </div>
        <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          {s.state === "valid" ? (
            <>
              <h1 className="text-base font-semibold">Sign in with this link</h1>
              <p className="text-sm text-slate-700">
                This link signs in <b data-testid="link-email">{s.email}</b> once. It expires at{" "}
                {new Date(s.expiresAt).toISOString().slice(0, 16).replace("T", " ")} UTC.
              </p>
              {me ? (
                <p className="text-xs text-slate-600">
                  You are signed in as {me.email} in this browser; signing in with the link replaces that session.
                </p>
              ) : null}
              <SignInLinkButton token={token} />
              <p className="text-xs text-slate-600">
                After signing in, set a password of your own with your admin, or ask for a new link next time.
              </p>
            </>
          ) : (
            <>
              <h1 className="text-base font-semibold" data-testid="link-refused">
                This link cannot sign you in
              </h1>
              <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-800" data-testid="link-refusal">
                {linkRefusal(s)}
              </p>
              <p className="text-sm">
                {me ? (
                  <Link className="text-indigo-700 hover:underline" href={homeFor(me.role)}>
                    Go on as {me.email}
                  </Link>
                ) : (
                  <Link className="text-indigo-700 hover:underline" href="/login">
                    Sign in with email and password
                  </Link>
                )}
              </p>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
