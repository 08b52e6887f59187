import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-slate-500">404</p>
      <h1 className="mt-1 text-lg font-semibold">Not found</h1>
      <Link href="/" className="mt-4 inline-block text-sm text-indigo-600 hover:underline">
        Back to your start page
      </Link>
    </div>
  );
}
