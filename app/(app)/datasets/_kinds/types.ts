import type { ReactNode } from "react";
import type { Db } from "@/db/client";
import type { DatasetRow } from "@/lib/datasets/browse/datasets";
import type { SearchParams } from "@/lib/datasets/browse/params";

export type Crumb = { href?: string; label: string };

/**
 * The browse views of one data-set kind: the pages call these instead of branching on the kind.
 * A new kind adds a file here and a line in ./index.ts, beside its entry in lib/datasets/kinds.
 */
export type KindViews = {
  /** The heading of the users table and a user's breadcrumb, when the kind's "users" are something else. */
  usersHeading?: string;
  userCrumb?: (userKey: string) => string;
  /** The data set page's users table (sorted, filtered, paged from the search params). */
  usersTable(db: Db, ds: DatasetRow, sp: SearchParams): ReactNode;
  /** One user's page, or null when the user does not exist (the page answers 404). */
  userPage(db: Db, ds: DatasetRow, userKey: string, crumbs: Crumb[], sp?: SearchParams): ReactNode | null;
};
