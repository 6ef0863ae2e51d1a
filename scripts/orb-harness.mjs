#!/usr/bin/env node
// The `orb-harness` bin. In a checkout it runs the TypeScript CLI through tsx's loader, so no build
// step is needed; in the npm package, which ships no TypeScript, it runs the compiled CLI in dist/.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { NODE_FLAGS } from "./node-flags.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, "cli.ts");
const cli = existsSync(source) ? ["--import", "tsx", source] : [join(here, "..", "dist", "scripts", "cli.js")];
const result = spawnSync(process.execPath, [...NODE_FLAGS, ...cli, ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
