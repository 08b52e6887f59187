"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/auth/action";
import { startMemoryBuild } from "@/lib/assistants/build-jobs";

export type BuildActionState = { buildId?: number; error?: string };

/** Starts a background memory build for one user (or every user) of a data set. */
export async function startBuildAction(_prev: BuildActionState, form: FormData): Promise<BuildActionState> {
  return runAction(["admin", "researcher"], (user) => {
    const users = String(form.get("users") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    const buildId = startMemoryBuild(getDb(), {
      datasetId: Number(form.get("datasetId")),
      method: String(form.get("method") ?? ""),
      users,
      createdBy: user.id,
    });
    revalidatePath("/memory");
    return { buildId };
  });
}
