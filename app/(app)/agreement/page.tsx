import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Agreement" };

export default async function AgreementPage() {
  await requireRole("admin", "researcher");
  return (
    <>
      <PageHeader title="Agreement" subtitle="Inter-annotator agreement and human vs LLM-judge comparison per campaign." />
      <EmptyState title="No campaigns with labels yet">
        Agreement for a ratings file can already be computed with <code>pal metrics agreement --in ratings.json</code>.
      </EmptyState>
    </>
  );
}
