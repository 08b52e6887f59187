import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // Tests run lib/ and db/ in plain Node, where the server-only marker has nothing to guard.
      "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["{lib,db,cli,test,bench}/**/*.test.ts"],
    // The reliability checks start the built app, the real-server suite llama-server; each runs on its own
    // (npm run test:reliability, npm run test:real-server).
    exclude: ["test/reliability/**", "test/real-server/**", "node_modules/**"],
    environment: "node",
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
