import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * `npm run test:real-server`: the CLI against llama.cpp's llama-server on a synthetic model (test/real-server/).
 * The first run on a machine builds llama-server (about 10 minutes on 2 cores, cached outside the checkout).
 */
export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["test/real-server/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 10 * 60_000,
    hookTimeout: 45 * 60_000,
  },
});
