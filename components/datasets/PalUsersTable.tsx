"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { DataTable, type ServerListState } from "./DataTable";
import { fmtCount, fmtSpan, spanDays, userHref } from "@/lib/datasets/browse/format";

export type PalUserRow = {
  userKey: string;
  name: string | null;
  sessions: number;
  logs: number;
  turns: number;
  topics: number;
  firstAt: number | string | null;
  lastAt: number | string | null;
};

const num = (key: "sessions" | "logs" | "turns" | "topics", header: string): ColumnDef<PalUserRow, unknown> => ({
  id: key,
  accessorKey: key,
  header,
  sortDescFirst: true, // the largest first
  meta: { numeric: true },
  cell: (c) => fmtCount(c.getValue() as number),
});

const COLUMNS: ColumnDef<PalUserRow, unknown>[] = [
  { id: "userKey", accessorKey: "userKey", header: "User id", cell: (c) => <span className="font-mono">{c.getValue() as string}</span> },
  {
    id: "name",
    accessorKey: "name",
    header: "Name",
    cell: (c) => (c.getValue() as string | null) ?? <span className="text-slate-500">–</span>,
  },
  num("sessions", "Sessions"),
  num("logs", "Logs"),
  num("turns", "Turns"),
  num("topics", "Topics"),
  {
    id: "span",
    header: "Time span",
    accessorFn: (r) => r.firstAt,
    cell: ({ row }) => {
      const days = spanDays(row.original.firstAt, row.original.lastAt);
      return (
        <span className="whitespace-nowrap tabular-nums text-slate-600">
          {fmtSpan(row.original.firstAt, row.original.lastAt)}
          {days ? <span className="ml-1 text-xs text-slate-500">({days} d)</span> : null}
        </span>
      );
    },
  },
];

/** The PAL-Set users of a data set: sorted, filtered and paged by the server. */
export function PalUsersTable({ datasetId, rows, state }: { datasetId: number; rows: PalUserRow[]; state: ServerListState }) {
  return (
    <DataTable<PalUserRow>
      testId="users-table"
      label="Users"
      data={rows}
      columns={COLUMNS}
      state={state}
      getRowId={(r) => r.userKey}
      rowHref={(r) => userHref(datasetId, r.userKey)}
      filterLabel="Find user"
      filterPlaceholder="id or name"
    />
  );
}
