import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { loadSession } from "./load-session";
import { datasetHref, userHref } from "@/lib/datasets/browse/format";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { SessionView } from "@/components/datasets/SessionView";
import { HashTarget } from "@/components/datasets/HashTarget";

export const metadata: Metadata = { title: "Session" };

export default async function SessionPage({ params }: { params: Promise<{ datasetId: string; userKey: string; sampleKey: string }> }) {
  await requireRole("admin", "researcher");
  const loaded = loadSession(getDb(), await params);
  if (!loaded) notFound();
  const { ds, userKey, session } = loaded;
  return (
    <>
      <Breadcrumbs
        items={[
          { href: "/datasets", label: "Datasets" },
          { href: datasetHref(ds.id), label: ds.name },
          { href: userHref(ds.id, userKey), label: `User ${userKey}` },
          { label: session.sampleKey },
        ]}
      />
      <PageHeader title={`Session ${session.sampleKey}`} />
      <SessionView datasetId={ds.id} userKey={userKey} lang={ds.language} session={session} />
      <HashTarget />
    </>
  );
}
