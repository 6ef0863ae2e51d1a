#!/usr/bin/env node
// The `orb-harness` bin: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { NODE_FLAGS } from "./node-flags.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const result = spawnSync(process.execPath, [...NODE_FLAGS, "--import", "tsx", join(here, "cli.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
