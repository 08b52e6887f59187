import { readListState } from "@/lib/datasets/browse/params";
import { userHref } from "@/lib/datasets/browse/format";
import { CM_THREAD_SORTS, getThread, listThreads } from "@/lib/datasets/convmem/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { Breadcrumbs } from "@/components/datasets/Breadcrumbs";
import { CountGrid } from "@/components/datasets/CountGrid";
import { CmThreadsTable } from "@/components/datasets/CmThreadsTable";
import { CmThreadView } from "@/components/datasets/CmThreadView";
import type { KindViews } from "./types";

/** LoCoMo and LongMemEval: the "users" are memory timelines (conversations, or questions with their haystacks). */
function convmemViews(kind: "locomo" | "longmemeval"): KindViews {
  return {
    usersHeading: kind === "locomo" ? "Conversations" : "Questions",
    userCrumb: (key) => (kind === "locomo" ? `Conversation ${key}` : `Question ${key}`),
    usersTable(db, ds, sp) {
      const st = readListState(sp, CM_THREAD_SORTS, { sort: "position" });
      const { rows, total } = listThreads(db, ds.id, st);
      return <CmThreadsTable datasetId={ds.id} rows={rows} state={{ ...st, total }} kind={kind} />;
    },
    userPage(db, ds, key, crumbs, sp) {
      const page = Number((Array.isArray(sp?.page) ? sp?.page[0] : sp?.page) ?? 1);
      const t = getThread(db, ds.id, key, page);
      if (!t) return null;
      const locomo = kind === "locomo";
      return (
        <>
          <Breadcrumbs items={crumbs} />
          <PageHeader
            title={locomo ? `Conversation ${t.threadKey}` : `Question ${t.threadKey}`}
            subtitle={`${locomo ? `LoCoMo · ${t.speakerA} and ${t.speakerB}` : "LongMemEval"} · ${ds.name}`}
          />
          <div className="space-y-6">
            <CountGrid
              counts={[
                { label: locomo ? "Sessions" : "Haystack sessions", value: t.sessionCount },
                { label: "Turns", value: t.turnCount },
                { label: "QA items", value: t.qa.length },
              ]}
            />
            <CmThreadView t={t} href={(p) => `${userHref(ds.id, t.threadKey)}?page=${p}`} />
          </div>
        </>
      );
    },
  };
}

export const locomoViews = convmemViews("locomo");
export const longmemevalViews = convmemViews("longmemeval");
