import type { Metadata } from "next";
import { requireRole } from "@/lib/auth/session";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { ImportForm } from "@/components/datasets/ImportForm";
import { uploadKinds } from "@/lib/datasets/kinds";
import { fmtMB } from "@/lib/datasets/browse/upload";

export const metadata: Metadata = { title: "Import a data set" };

export default async function ImportPage() {
  await requireRole("admin", "researcher");
  const kinds = uploadKinds();
  const limit = fmtMB(Math.max(...kinds.map((k) => k.maxBytes)));
  return (
    <>
      <Breadcrumbs items={[{ href: "/datasets", label: "Datasets" }, { label: "Import" }]} />
      <PageHeader
        title="Import a data set"
        subtitle={`${kinds.map((k) => `${k.label} (${k.extensions.join(", ")})`).join(" or ")}, up to ${limit}. For larger sets use \`npx pal import\`.`}
      />
      <ImportForm kinds={kinds} />
    </>
  );
}
