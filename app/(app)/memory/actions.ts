"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { startBuildForm } from "@/lib/assistants/core/build-form";

export type BuildActionState = ActionResult<{ buildId?: number }>;

/** Starts a background memory build for one user (or every user) of a data set. */
export async function startBuildAction(_prev: BuildActionState, form: FormData): Promise<BuildActionState> {
  return runAction(["admin", "researcher"], (user) => {
    const r = startBuildForm(getDb(), form, user.id);
    revalidatePath("/memory");
    return r;
  });
}
