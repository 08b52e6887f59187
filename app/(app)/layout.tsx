import { AppShell } from "@/components/shell/AppShell";
import { navFor } from "@/lib/auth/nav";
import { requireRole } from "@/lib/auth/session";

/** The signed-in shell. Each page still checks its own role: a layout alone guards nothing. */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  // Crowd participants have no shell: only their study pages (app/join).
  const user = await requireRole("admin", "researcher", "annotator");
  return (
    <AppShell email={user.email} role={user.role} items={navFor(user.role).map(({ href, label }) => ({ href, label }))}>
      {children}
    </AppShell>
  );
}
