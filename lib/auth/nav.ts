import type { Role } from "@/db/schema";

/** The left navigation; each entry lists the roles that may open it (the pages check again). */
export const NAV_ITEMS: Array<{ href: string; label: string; roles: Role[] }> = [
  { href: "/datasets", label: "Datasets", roles: ["admin", "researcher"] },
  { href: "/memory", label: "Memory", roles: ["admin", "researcher"] },
  { href: "/experiments", label: "Experiments", roles: ["admin", "researcher"] },
  { href: "/campaigns", label: "Campaigns", roles: ["admin", "researcher"] },
  { href: "/annotate", label: "Annotate", roles: ["admin", "researcher", "annotator"] },
  { href: "/agreement", label: "Agreement", roles: ["admin", "researcher"] },
  { href: "/admin/users", label: "Admin", roles: ["admin"] },
  { href: "/admin/models", label: "Models", roles: ["admin"] },
  { href: "/admin/methods", label: "Methods", roles: ["admin"] },
  { href: "/admin/settings", label: "Settings", roles: ["admin"] },
];

export function navFor(role: Role) {
  return NAV_ITEMS.filter((i) => i.roles.includes(role));
}

/** Where a role lands after login. */
export function homeFor(role: Role): string {
  if (role === "participant") return "/join";
  return role === "annotator" ? "/annotate" : "/datasets";
}
