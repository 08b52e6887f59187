import type { Metadata } from "next";

export const metadata: Metadata = { title: "Study" };

/** Where a participant lands without their link (e.g. the app's home): they come back through the link. */
export default function JoinHome() {
  return (
    <div className="mx-auto max-w-xl px-4 py-10 text-center">
      <h1 className="text-lg font-semibold text-slate-900">Open your study link</h1>
      <p className="mt-2 text-sm text-slate-600">
        To continue a study, open the link you were given (for example from Prolific) again in this browser.
      </p>
    </div>
  );
}
