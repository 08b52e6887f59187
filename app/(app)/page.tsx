import { redirect } from "next/navigation";
import { requireRole } from "@/lib/auth/session";
import { homeFor } from "@/lib/auth/nav";

export default async function Home() {
  const user = await requireRole();
  redirect(homeFor(user.role));
}
