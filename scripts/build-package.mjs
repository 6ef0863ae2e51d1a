#!/usr/bin/env node
// `npm run build` (and so `npm pack`, through prepack): the npm package's dist/. Compiles the
// library entry and the CLI with tsconfig.build.json, then copies the data files the compiled code
// reads at run time beside it: every `new URL("<literal>", import.meta.url)` of the emitted
// JavaScript that names a file or folder other than code (recorded data, say) is copied from the
// sources to the same place in dist/. A named file that does not exist fails the build.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const URL_LITERAL = /new URL\(\s*(["'])([^"'`$]+)\1\s*,\s*import\.meta\.url\s*\)/g;

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const compiled = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const copied = new Set();
for (const file of readdirSync(dist, { recursive: true })) {
  if (!file.endsWith(".js")) continue;
  const emitted = join(dist, file);
  for (const [, , literal] of readFileSync(emitted, "utf8").matchAll(URL_LITERAL)) {
    const target = new URL(literal, pathToFileURL(emitted));
    if (target.protocol !== "file:" || CODE.test(target.pathname.replace(/\/$/, ""))) continue;
    const inDist = fileURLToPath(target);
    const fromDist = relative(dist, inDist);
    // Outside dist/ (the package.json beside it, say): the package ships it as it is, or not at all.
    if (fromDist.startsWith(`..${sep}`) || fromDist === "..") continue;
    const source = join(root, fromDist);
    if (!existsSync(source)) {
      console.error(`build-package: dist/${file} reads ${literal}, but ${relative(root, source)} does not exist`);
      process.exit(1);
    }
    if (copied.has(source)) continue;
    cpSync(source, inDist, { recursive: true });
    copied.add(source);
    console.error(`build-package: copied ${relative(root, source)} (read by dist/${file})`);
  }
}
