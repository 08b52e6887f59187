"use client";
import { useActionState, useEffect } from "react";
import { useRouter } from "next/navigation";
import { startBuildAction, type BuildActionState } from "@/app/(app)/memory/actions";

/**
 * The "start a memory build" action for a form (the build form, a Resume button): once the server
 * reports the new build, the page is refreshed so that its progress bar appears in the list.
 */
export function useStartBuild() {
  const [state, action, pending] = useActionState<BuildActionState, FormData>(startBuildAction, {});
  const router = useRouter();
  useEffect(() => {
    if (state.buildId) router.refresh();
  }, [state.buildId, router]);
  return [state, action, pending] as const;
}
