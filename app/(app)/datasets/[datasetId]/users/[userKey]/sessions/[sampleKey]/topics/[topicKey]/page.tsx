import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { loadSession } from "../../load-session";
import { segment } from "@/lib/datasets/browse/params";
import { datasetHref, sessionHref, topicAnchor, userHref } from "@/lib/datasets/browse/format";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { SessionView } from "@/components/datasets/SessionView";
import { HashTarget } from "@/components/datasets/HashTarget";

export const metadata: Metadata = { title: "Topic" };

/** A topic's own URL: its session, with the topic highlighted and scrolled into view. */
export default async function TopicPage({
  params,
}: {
  params: Promise<{ datasetId: string; userKey: string; sampleKey: string; topicKey: string }>;
}) {
  await requireRole("admin", "researcher");
  const p = await params;
  const loaded = loadSession(getDb(), p);
  const topicKey = segment(p.topicKey);
  if (!loaded || topicKey == null) notFound();
  const { ds, userKey, session } = loaded;
  const index = session.topics.findIndex((t) => t.topicKey === topicKey);
  if (index < 0) notFound();
  return (
    <>
      <Breadcrumbs
        items={[
          { href: "/datasets", label: "Datasets" },
          { href: datasetHref(ds.id), label: ds.name },
          { href: userHref(ds.id, userKey), label: `User ${userKey}` },
          { href: sessionHref(ds.id, userKey, session.sampleKey), label: session.sampleKey },
          { label: topicKey },
        ]}
      />
      <PageHeader title={`Session ${session.sampleKey} · Topic ${index + 1}`} subtitle={session.topics[index].userQuery} />
      <SessionView datasetId={ds.id} userKey={userKey} lang={ds.language} session={session} highlight={topicKey} />
      <HashTarget fallbackId={topicAnchor(topicKey)} />
    </>
  );
}
