import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId, segment } from "@/lib/datasets/browse/params";
import { datasetHref, fmtCount, fmtSpan, qaHref } from "@/lib/datasets/browse/format";
import { getPalUser } from "@/lib/datasets/palset/queries";
import { getHcUser } from "@/lib/datasets/hicupid/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { ProfileCard } from "@/components/datasets/ProfileCard";
import { SessionTimeline } from "@/components/datasets/SessionTimeline";
import { HcDialogueList } from "@/components/datasets/HcDialogueList";
import { HashTarget } from "@/components/datasets/HashTarget";
import { LogTypeSummary } from "@/components/datasets/LogTypeSummary";

export const metadata: Metadata = { title: "User" };

type Params = Promise<{ datasetId: string; userKey: string }>;

export default async function UserPage({ params }: { params: Params }) {
  await requireRole("admin", "researcher");
  const p = await params;
  const id = parseId(p.datasetId);
  const userKey = segment(p.userKey);
  const db = getDb();
  const ds = id == null || userKey == null ? null : getDataset(db, id);
  if (!ds || userKey == null) notFound();
  const crumbs = [{ href: "/datasets", label: "Datasets" }, { href: datasetHref(ds.id), label: ds.name }, { label: `User ${userKey}` }];

  if (ds.kind === "hicupid") {
    const u = getHcUser(db, ds.id, userKey);
    if (!u) notFound();
    return (
      <>
        <Breadcrumbs items={crumbs} />
        <PageHeader
          title={`User ${u.userKey}`}
          subtitle={`HiCUPID · ${ds.name}`}
          actions={
            <Link href={qaHref(ds.id, { user: u.userKey })} className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
              This user&apos;s QA ({fmtCount(u.qa)})
            </Link>
          }
        />
        <div className="space-y-6">
          <CountGrid
            counts={[
              { label: "Dialogues", value: u.dialogues },
              { label: "Turns", value: u.turns },
              { label: "Persona", value: u.persona },
              { label: "Profile", value: u.profile },
              { label: "Schedule", value: u.schedule },
              { label: "QA items", value: u.qa },
            ]}
          />
          <HcDialogueList
            dialogues={u.history.map((d) => ({
              dialogueKey: d.dialogueKey,
              split: d.split,
              type: d.type,
              metadata: d.metadata,
              turns: d.turns.map((t) => ({ user: t.user, assistant: t.assistant })),
            }))}
          />
        </div>
        <HashTarget />
      </>
    );
  }

  const u = getPalUser(db, ds.id, userKey);
  if (!u) notFound();
  const samples = u.timeline;
  const sum = (k: "logCount" | "turnCount" | "topicCount") => samples.reduce((s, x) => s + x[k], 0);
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <PageHeader
        title={u.name ? `${u.name} (${u.userKey})` : `User ${u.userKey}`}
        subtitle={`PAL-Set · ${ds.name} · ${fmtSpan(samples[0]?.dialogueTimestamp, samples[samples.length - 1]?.dialogueTimestamp)}`}
        actions={
          <a href={`/api/datasets/${ds.id}/export?user=${encodeURIComponent(u.userKey)}`} download className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
            Download user JSON
          </a>
        }
      />
      <div className="space-y-6">
        <CountGrid
          testId="user-counts"
          counts={[
            { label: "Sessions", value: samples.length },
            { label: "History", value: samples.filter((s) => s.split === "history").length },
            { label: "Query", value: samples.filter((s) => s.split === "query").length },
            { label: "Logs", value: sum("logCount") },
            { label: "Turns", value: sum("turnCount") },
            { label: "Topics", value: sum("topicCount") },
          ]}
        />
        <LogTypeSummary counts={u.logTypes} lang={ds.language} />
        <div className="grid gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
          <ProfileCard background={u.background} requirementTypes={u.requirementTypes} />
          <SessionTimeline datasetId={ds.id} userKey={u.userKey} samples={samples} />
        </div>
      </div>
    </>
  );
}
