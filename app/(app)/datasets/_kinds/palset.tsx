import { readListState } from "@/lib/datasets/browse/params";
import { fmtSpan } from "@/lib/datasets/browse/format";
import { PAL_USER_SORTS, getPalUser, listPalUsers } from "@/lib/datasets/palset/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { PalUsersTable } from "@/components/datasets/PalUsersTable";
import { ProfileCard } from "@/components/datasets/ProfileCard";
import { SessionTimeline } from "@/components/datasets/SessionTimeline";
import { LogTypeSummary } from "@/components/datasets/LogTypeSummary";
import type { KindViews } from "./types";

export const palsetViews: KindViews = {
  usersTable(db, ds, sp) {
    const st = readListState(sp, PAL_USER_SORTS, { sort: "userKey" });
    const { rows, total } = listPalUsers(db, ds.id, st);
    return <PalUsersTable datasetId={ds.id} rows={rows} state={{ ...st, total }} />;
  },

  userPage(db, ds, userKey, crumbs) {
    const u = getPalUser(db, ds.id, userKey);
    if (!u) return null;
    const samples = u.timeline;
    const sum = (k: "logCount" | "turnCount" | "topicCount") => samples.reduce((s, x) => s + x[k], 0);
    return (
      <>
        <Breadcrumbs items={crumbs} />
        <PageHeader
          title={u.name ? `${u.name} (${u.userKey})` : `User ${u.userKey}`}
          subtitle={`PAL-Set · ${ds.name} · ${fmtSpan(u.firstAt, u.lastAt)}`}
          actions={
            <a
              href={`/api/datasets/${ds.id}/export?user=${encodeURIComponent(u.userKey)}`}
              download
              className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
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
  },
};
