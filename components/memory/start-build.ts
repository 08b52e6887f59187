"use client";
import { useActionState, useEffect } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult, FormAction } from "@/lib/http/action-result";

/** The memory page's start-build server action (app/(app)/memory/actions.ts), passed down as a prop. */
export type StartBuildAction = FormAction<{ buildId?: number }>;

/**
 * The "start a memory build" action for a form (the build form, a Resume button): once the server
 * reports the new build, the page is refreshed so that its progress bar appears in the list.
 */
export function useStartBuild(startBuild: StartBuildAction) {
  const [state, action, pending] = useActionState<ActionResult<{ buildId?: number }>, FormData>(startBuild, {});
  const router = useRouter();
  useEffect(() => {
    if (state.buildId) router.refresh();
  }, [state.buildId, router]);
  return [state, action, pending] as const;
}
