import Link from "next/link";

export default function Forbidden() {
  return (
    <div className="mx-auto mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-rose-700">403</p>
      <h1 className="mt-1 text-lg font-semibold">You do not have access to this page</h1>
      <p className="mt-2 text-sm text-slate-500">Your role does not include it. Ask an admin if you need it.</p>
      <Link href="/" className="mt-4 inline-block text-sm text-indigo-600 hover:underline">
        Back to your start page
      </Link>
    </div>
  );
}
