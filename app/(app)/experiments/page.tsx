import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Experiments" };

export default async function ExperimentsPage() {
  await requireRole("admin", "researcher");
  return (
    <>
      <PageHeader title="Experiments" subtitle="Assistants × PAL-Bench / HiCUPID tasks, run as resumable jobs." />
      <EmptyState title="No experiments yet">
        Running assistants and tasks from the browser arrives with the experiments release. The data sets and the
        metrics library (<code>pal metrics</code>) are ready.
      </EmptyState>
    </>
  );
}
