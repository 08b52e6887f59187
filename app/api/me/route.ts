import { NextResponse } from "next/server";
import { withRole } from "@/lib/auth/session";

export const GET = withRole(["admin", "researcher", "annotator"], (_req, { user }) => NextResponse.json(user));
