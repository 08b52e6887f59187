/** Memory → Build memory server-action form, validated at the boundary (lib/http/form.ts). */
import { z } from "zod";
import type { Db } from "@/db/client";
import { formId, formText, parseForm } from "@/lib/http/form";
import { startMemoryBuild } from "./build-jobs";

const fields = z.object({
  datasetId: formId("data set"),
  method: z.string({ error: "expected a method" }).min(1, "expected a method").max(100),
  users: formText(100_000),
});

/** Starts a background build; an unknown data set is a 404, an unknown method or user a 400 (startMemoryBuild). */
export function startBuildForm(db: Db, form: FormData, userId: number): { buildId: number } {
  const f = parseForm(fields, form);
  const users = f.users.split(/[\s,]+/).filter(Boolean);
  return { buildId: startMemoryBuild(db, { datasetId: f.datasetId, method: f.method, users, createdBy: userId }) };
}
