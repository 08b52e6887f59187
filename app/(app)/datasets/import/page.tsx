import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { ImportForm } from "@/components/datasets/ImportForm";

export const metadata: Metadata = { title: "Import a data set" };

export default async function ImportPage() {
  await requireRole("admin", "researcher");
  return (
    <>
      <Breadcrumbs items={[{ href: "/datasets", label: "Datasets" }, { label: "Import" }]} />
      <PageHeader
        title="Import a data set"
        subtitle="PAL-Set (input.json or per-user files, with the optional profile files) or HiCUPID (parquet or JSONL), up to 500 MB. For larger sets use `npx pal import`."
      />
      <ImportForm />
    </>
  );
}
