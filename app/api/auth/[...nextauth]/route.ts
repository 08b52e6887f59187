import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { capLoginBody } from "@/lib/auth/login-limits";

// next-auth's own endpoints (sign-in, session, CSRF): public by design.
const handler = NextAuth(authOptions);

type Ctx = { params: Promise<{ nextauth: string[] }> };

/** A sign-in body over the limit is refused (413) before next-auth sees it. */
async function POST(req: NextRequest, ctx: Ctx) {
  const capped = await capLoginBody(req);
  return capped instanceof Response ? capped : handler(capped, ctx);
}

export { handler as GET, POST };
