import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@node-rs/jieba", "bcryptjs"],
  poweredByHeader: false,
  // forbidden()/unauthorized() give pages real 403/401 statuses.
  experimental: { authInterrupts: true },
  // The test suite type-checks separately (tsc --noEmit); `npm start` need not do it again.
  typescript: { ignoreBuildErrors: process.env.PAL_SKIP_TYPECHECK === "1" },
};

export default nextConfig;
