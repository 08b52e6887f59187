import { redirect } from "next/navigation";
import type { Metadata } from "next";
import { currentUser } from "@/lib/auth/session";
import { homeFor } from "@/lib/auth/nav";
import { safeCallbackPath } from "@/lib/auth/callback";
import { LoginForm } from "@/components/auth/LoginForm";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const user = await currentUser();
  if (user) redirect(homeFor(user.role));
  const { callbackUrl } = await searchParams;
  // Only this app's paths: never bounce a user to another origin after login.
  const next = safeCallbackPath(callbackUrl);
  return (
    <div className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="grid h-7 w-7 place-items-center rounded bg-indigo-600 text-sm text-white">P</span>
          PAL Studio
        </div>
        <LoginForm next={next} />
      </div>
    </div>
  );
}
