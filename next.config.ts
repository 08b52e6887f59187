import type { NextConfig } from "next";
import { envFlag } from "./lib/config";
import { gitCommit } from "./lib/project-version";

/** Sent with every response: no framing by other sites (clickjacking), no MIME sniffing, no full URLs in Referer. */
const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@node-rs/jieba", "bcryptjs"],
  poweredByHeader: false,
  // The commit the app was built from: a run record states it (lib/project-version.ts).
  env: { PAL_BUILD_COMMIT: process.env.PAL_BUILD_COMMIT ?? gitCommit() ?? "" },
  // forbidden()/unauthorized() give pages real 403/401 statuses.
  experimental: { authInterrupts: true },
  // The test suite type-checks separately (tsc --noEmit); `npm start` need not do it again.
  typescript: { ignoreBuildErrors: envFlag("PAL_SKIP_TYPECHECK") },
  // Chromium asks for /favicon.ico on any response that links no icon (a JSON answer, a plain-text 403):
  // the app's SVG favicon answers it instead of a 404 logged in the console.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/favicon.svg" }];
  },
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
