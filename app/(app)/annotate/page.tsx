import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Annotate" };

export default async function AnnotatePage() {
  const user = await requireRole("admin", "researcher", "annotator");
  return (
    <>
      <PageHeader title="Your annotation queue" subtitle={`Signed in as ${user.email}. You only ever see your own assignments.`} />
      <EmptyState title="Nothing assigned to you yet">
        When a researcher adds you to a campaign, its items appear here one at a time.
      </EmptyState>
    </>
  );
}
