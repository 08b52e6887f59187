import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { listExternalMethods } from "@/lib/assistants/external/store";
import { PageHeader } from "@/components/shell/PageHeader";
import { MethodsPanel } from "@/components/admin/MethodsPanel";
import { addMethodAction, checkMethodAction, removeMethodAction, resetMethodAction } from "./actions";

export const metadata: Metadata = { title: "Methods" };

export default async function MethodsPage() {
  await requireRole("admin");
  const methods = listExternalMethods(getDb()).map((m) => ({ ...m, createdAt: new Date(m.createdAt).toISOString().slice(0, 10) }));
  return (
    <>
      <PageHeader
        title="Methods"
        subtitle="Memory methods served over HTTP by your lab, in any language. A registered method runs like a built-in one (experiments, results, tables); its model calls go through this run's client, cache, spend cap and ledger. The protocol: docs/external-methods.md."
      />
      <MethodsPanel
        methods={methods}
        add={addMethodAction}
        remove={removeMethodAction}
        check={checkMethodAction}
        reset={resetMethodAction}
      />
    </>
  );
}
