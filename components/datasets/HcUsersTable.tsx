"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { DataTable, type ServerListState } from "./DataTable";
import { fmtCount, userHref } from "@/lib/datasets/browse/format";

export type HcUserRow = { userKey: string; dialogues: number; qa: number; persona: number; profile: number; schedule: number };

const num = (key: Exclude<keyof HcUserRow, "userKey">, header: string): ColumnDef<HcUserRow, unknown> => ({
  id: key,
  accessorKey: key,
  header,
  sortDescFirst: true, // the largest first
  meta: { numeric: true },
  cell: (c) => fmtCount(c.getValue() as number),
});

const COLUMNS: ColumnDef<HcUserRow, unknown>[] = [
  { id: "userKey", accessorKey: "userKey", header: "User id", cell: (c) => <span className="font-mono">{c.getValue() as string}</span> },
  num("dialogues", "Dialogues"),
  num("persona", "Persona"),
  num("profile", "Profile"),
  num("schedule", "Schedule"),
  num("qa", "QA items"),
];

/** The HiCUPID users of a data set with their dialogue counts by type: sorted, filtered and paged by the server. */
export function HcUsersTable({ datasetId, rows, state }: { datasetId: number; rows: HcUserRow[]; state: ServerListState }) {
  return (
    <DataTable<HcUserRow>
      testId="users-table"
      label="Users"
      data={rows}
      columns={COLUMNS}
      state={state}
      getRowId={(r) => r.userKey}
      rowHref={(r) => userHref(datasetId, r.userKey)}
      filterLabel="Find user"
      filterPlaceholder="user id"
    />
  );
}
