"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { DataTable, type ServerListState } from "./DataTable";
import { fmtCount, userHref } from "@/lib/datasets/browse/format";

export type CmThreadRowView = { threadKey: string; sessions: number; turns: number; qa: number; firstQuestion: string | null };

const num = (key: "sessions" | "turns" | "qa", header: string): ColumnDef<CmThreadRowView, unknown> => ({
  id: key,
  accessorKey: key,
  header,
  sortDescFirst: true,
  meta: { numeric: true },
  cell: (c) => fmtCount(c.getValue() as number),
});

/**
 * LoCoMo conversations or LongMemEval questions (each a memory timeline): sorted, searched (key and
 * question text) and paged by the server. `kind` names the rows.
 */
export function CmThreadsTable({
  datasetId,
  rows,
  state,
  kind,
}: {
  datasetId: number;
  rows: CmThreadRowView[];
  state: ServerListState;
  kind: "locomo" | "longmemeval";
}) {
  const locomo = kind === "locomo";
  const columns: ColumnDef<CmThreadRowView, unknown>[] = [
    {
      id: "threadKey",
      accessorKey: "threadKey",
      header: locomo ? "Conversation" : "Question id",
      cell: (c) => <span className="font-mono">{c.getValue() as string}</span>,
    },
    ...(locomo
      ? []
      : [
          {
            id: "firstQuestion",
            accessorKey: "firstQuestion",
            header: "Question",
            enableSorting: false,
            cell: (c) => <span className="line-clamp-2 max-w-xl">{(c.getValue() as string | null) ?? ""}</span>,
          } satisfies ColumnDef<CmThreadRowView, unknown>,
        ]),
    num("sessions", locomo ? "Sessions" : "Haystack sessions"),
    num("turns", "Turns"),
    ...(locomo ? [num("qa", "QA items")] : []),
  ];
  return (
    <DataTable<CmThreadRowView>
      testId="users-table"
      label={locomo ? "Conversations" : "Questions"}
      data={rows}
      columns={columns}
      state={state}
      getRowId={(r) => r.threadKey}
      rowHref={(r) => userHref(datasetId, r.threadKey)}
      filterLabel={locomo ? "Find conversation or question" : "Find question"}
      filterPlaceholder={locomo ? "sample id or question text" : "question id or text"}
    />
  );
}
