import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * `npm run test:reliability`: the checks that run the real app (`next start`) and SIGKILL it, fill its
 * disk, back it up, load it (test/reliability/). One file at a time: each starts servers of its own.
 */
export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["test/reliability/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
