import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listModelConfigs } from "@/lib/llm/config";
import { jsonModeRefusals } from "@/lib/llm/ledger";
import { PageHeader } from "@/components/shell/PageHeader";
import { AddJudgeForm, ModelSettingForm } from "@/components/admin/ModelSettingForm";
import { RemoveJudgeForm } from "@/components/admin/RemoveJudgeForm";
import { EndpointForm, RemoveEndpointForm } from "@/components/admin/EndpointForms";
import { listEndpoints } from "@/lib/llm/endpoints";
import { deleteEndpointAction, deleteModelAction, saveEndpointAction, saveModelAction, testModelAction } from "./actions";

export const metadata: Metadata = { title: "Models" };

export default async function ModelsPage() {
  await requireRole("admin");
  // Only public fields reach the browser: the key is shown as set / from env / missing.
  const configs = listModelConfigs(getDb());
  // Endpoints that answered JSON mode with a 400: their calls ask without it (the ledger has the note).
  const refused = jsonModeRefusals(getDb());
  // Endpoints defined once; their keys stay on the server like the roles' keys.
  const endpoints = listEndpoints(getDb());
  return (
    <>
      <PageHeader
        title="Models"
        subtitle="The endpoint and model of each role. The environment (OPENAI_BASE_URL, PAL_MODEL_<ROLE>, ...) gives the defaults; what you save here overrides them. Saved keys are encrypted and never shown."
      />
      <section className="mb-6" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" className="mb-1 text-sm font-semibold text-slate-800">
          Endpoints
        </h2>
        <p className="mb-2 text-xs text-slate-500">
          Define an endpoint once and point roles and judges at it: its URL, key, timeout and JSON mode replace theirs, and its limits (in
          flight, requests and tokens per minute) hold for all of them together, across the server and CLI runs on this database.
        </p>
        <div className="grid gap-3">
          {endpoints.map((e) => (
            <div key={e.id}>
              <EndpointForm endpoint={e} action={saveEndpointAction} />
              <RemoveEndpointForm name={e.name} action={deleteEndpointAction} />
            </div>
          ))}
          <EndpointForm action={saveEndpointAction} />
        </div>
      </section>
      <div className="grid gap-4 lg:grid-cols-2">
        {configs.map((c) => (
          <div key={c.name}>
            <ModelSettingForm
              config={c}
              endpoints={endpoints.map((e) => e.name)}
              actions={{ save: saveModelAction, test: testModelAction }}
            />
            {refused
              // A defined endpoint shows its own JSON mode note (remembered on the endpoint).
              .filter((r) => !c.endpoint && r.endpoint === c.baseURL && r.model === c.model)
              .map((r) => (
                <p key={`${r.endpoint} ${r.model}`} className="mt-1 text-xs text-amber-700">
                  JSON mode: {r.endpoint} refused it for {r.model} (HTTP 400), so calls ask for plain replies and parse the JSON out of
                  them.
                </p>
              ))}
            {c.name.startsWith("judge:") ? <RemoveJudgeForm name={c.name} action={deleteModelAction} /> : null}
          </div>
        ))}
      </div>
      <div className="mt-6">
        <AddJudgeForm action={saveModelAction} />
      </div>
    </>
  );
}
