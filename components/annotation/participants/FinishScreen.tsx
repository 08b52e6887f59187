"use client";
/**
 * The end of a participant's work: the code to give Prolific, then on to Prolific's completion URL
 * after a short pause (so the code can be read), or at once with the button.
 */
import { useEffect } from "react";
import { TAP } from "@/components/shell/touch";

type Props = { title: string; message: string; code: string | null; url: string | null };

export function FinishScreen({ title, message, code, url }: Props) {
  useEffect(() => {
    if (!url) return;
    const t = setTimeout(() => window.location.assign(url), 4000);
    return () => clearTimeout(t);
  }, [url]);
  return (
    <div className="mx-auto max-w-xl px-4 py-10" data-testid="finish">
      <section className="rounded-lg border border-slate-200 bg-white p-6 text-center">
        <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        {code ? (
          <p className="mt-4 text-sm text-slate-700">
            Your code:{" "}
            <code className="rounded bg-slate-100 px-2 py-1 font-mono text-base font-semibold" data-testid="finish-code">
              {code}
            </code>
          </p>
        ) : null}
        {url ? (
          <a href={url} className={`mt-6 inline-block rounded bg-indigo-600 px-4 py-2 text-sm font-medium text-white ${TAP}`}>
            Return to Prolific
          </a>
        ) : null}
      </section>
    </div>
  );
}
