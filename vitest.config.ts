import { defineConfig } from "vitest/config";
import { NODE_FLAGS } from "./scripts/node-flags.mjs";

export default defineConfig({
  test: {
    include: ["{sim,spec,conformance,reports,scripts,examples}/**/*.test.ts"],
    // The real-server tier (`npm run test:real`, vitest.real.config.ts) needs binaries from outside the repo.
    exclude: ["**/node_modules/**", "**/*.real.test.ts"],
    // Property tests run hundreds of model runs; the default 5 s is too tight on a 2-core CI box.
    testTimeout: 60_000,
    pool: "forks",
    execArgv: NODE_FLAGS,
    benchmark: { include: ["{sim,spec,conformance,reports,scripts,examples}/**/*.bench.ts"] },
  },
});
