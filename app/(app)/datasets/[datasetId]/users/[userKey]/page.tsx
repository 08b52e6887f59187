import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId, segment, type SearchParams } from "@/lib/datasets/browse/params";
import { datasetHref } from "@/lib/datasets/browse/format";
import { kindViews } from "../../../_kinds";

export const metadata: Metadata = { title: "User" };

type Params = Promise<{ datasetId: string; userKey: string }>;

export default async function UserPage({ params, searchParams }: { params: Params; searchParams: Promise<SearchParams> }) {
  await requireRole("admin", "researcher");
  const p = await params;
  const id = parseId(p.datasetId);
  const userKey = segment(p.userKey);
  const db = getDb();
  const ds = id == null || userKey == null ? null : getDataset(db, id);
  if (!ds || userKey == null) notFound();
  const views = kindViews(ds.kind);
  const crumbs = [
    { href: "/datasets", label: "Datasets" },
    { href: datasetHref(ds.id), label: ds.name },
    { label: views.userCrumb?.(userKey) ?? `User ${userKey}` },
  ];

  const view = views.userPage(db, ds, userKey, crumbs, await searchParams);
  if (!view) notFound();
  return view;
}
