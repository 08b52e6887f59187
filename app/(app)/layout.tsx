import { TopBar } from "@/components/shell/TopBar";
import { SideNav } from "@/components/shell/SideNav";
import { navFor } from "@/lib/auth/nav";
import { requireRole } from "@/lib/auth/session";

/** The signed-in shell. Each page still checks its own role: a layout alone guards nothing. */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireRole();
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar email={user.email} role={user.role} />
      <div className="flex flex-1">
        <SideNav items={navFor(user.role).map(({ href, label }) => ({ href, label }))} />
        <main className="min-w-0 flex-1 p-6">{children}</main>
      </div>
    </div>
  );
}
