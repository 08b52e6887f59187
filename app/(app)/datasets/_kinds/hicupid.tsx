import Link from "next/link";
import { readListState } from "@/lib/datasets/browse/params";
import { fmtCount, qaHref } from "@/lib/datasets/browse/format";
import { HC_USER_SORTS, getHcUser, listHcUsers } from "@/lib/datasets/hicupid/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { HcDialogueList } from "@/components/datasets/HcDialogueList";
import { HcUsersTable } from "@/components/datasets/HcUsersTable";
import { HashTarget } from "@/components/datasets/HashTarget";
import type { KindViews } from "./types";

export const hicupidViews: KindViews = {
  usersTable(db, ds, sp) {
    const st = readListState(sp, HC_USER_SORTS, { sort: "userKey" });
    const { rows, total } = listHcUsers(db, ds.id, st);
    return <HcUsersTable datasetId={ds.id} rows={rows} state={{ ...st, total }} />;
  },

  userPage(db, ds, userKey, crumbs) {
    const u = getHcUser(db, ds.id, userKey);
    if (!u) return null;
    return (
      <>
        <Breadcrumbs items={crumbs} />
        <PageHeader
          title={`User ${u.userKey}`}
          subtitle={`HiCUPID · ${ds.name}`}
          actions={
            <Link
              href={qaHref(ds.id, { user: u.userKey })}
              className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
            >
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
  },
};
