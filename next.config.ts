import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native addons must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@node-rs/jieba", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
