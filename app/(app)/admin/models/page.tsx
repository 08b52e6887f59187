import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listModelConfigs } from "@/lib/llm/config";
import { PageHeader } from "@/components/shell/PageHeader";
import { AddJudgeForm, ModelSettingForm } from "@/components/admin/ModelSettingForm";
import { RemoveJudgeForm } from "@/components/admin/RemoveJudgeForm";

export const metadata: Metadata = { title: "Models" };

export default async function ModelsPage() {
  await requireRole("admin");
  // Only public fields reach the browser: the key is shown as set / from env / missing.
  const configs = listModelConfigs(getDb());
  return (
    <>
      <PageHeader
        title="Models"
        subtitle="The endpoint and model of each role. The environment (OPENAI_BASE_URL, PAL_MODEL_<ROLE>, ...) gives the defaults; what you save here overrides them. Saved keys are encrypted and never shown."
      />
      <div className="grid gap-4 lg:grid-cols-2">
        {configs.map((c) => (
          <div key={c.name}>
            <ModelSettingForm config={c} />
            {c.name.startsWith("judge:") ? <RemoveJudgeForm name={c.name} /> : null}
          </div>
        ))}
      </div>
      <div className="mt-6">
        <AddJudgeForm />
      </div>
    </>
  );
}
