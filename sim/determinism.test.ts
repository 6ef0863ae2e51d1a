/**
 * The determinism contract of docs/ARCHITECTURE.md, enforced: nothing in sim/ reads the wall clock or
 * global randomness, except the real-time adapter. And the contract's promise, checked: the same
 * seed gives the same trace hash; another seed gives another.
 *
 * The scan parses each file with the TypeScript compiler rather than matching text, so comments
 * and strings that mention a banned call do not trip it, and spacing, `globalThis.` prefixes or
 * passing the function as a value (`promisify(setTimeout)`) do not evade it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { Simulation } from "./kernel/index.ts";

/** One banned source of time or randomness and what to use instead. */
interface Ban {
  /** How the violation is shown. */
  readonly shown: string;
  readonly replacement: string;
  /** Files (relative to the repository root, with "/") where the use is allowed. */
  readonly allowedIn?: readonly string[];
}

const BANS = {
  dateNow: { shown: "Date.now()", replacement: "clock.nowMs()" },
  newDate: { shown: "new Date() without an argument", replacement: "new Date(clock.nowMs())" },
  dateCall: { shown: "Date() called as a function", replacement: "new Date(clock.nowMs()).toString()" },
  mathRandom: { shown: "Math.random()", replacement: "rng.float()" },
  performanceNow: { shown: "performance.now()", replacement: "clock.nowMs()" },
  hrtime: { shown: "process.hrtime()", replacement: "clock.nowMs()" },
  randomUuid: { shown: "crypto.randomUUID() / randomUUID()", replacement: "rng.uuid()" },
  randomBytes: { shown: "randomBytes()", replacement: "rng.bytes(n)" },
  randomInt: { shown: "crypto.randomInt()", replacement: "rng.int(min, max)" },
  getRandomValues: { shown: "crypto.getRandomValues()", replacement: "rng.bytes(n)" },
  setTimeout: { shown: "setTimeout()", replacement: "clock.setTimer(delayMs, callback)" },
  setInterval: { shown: "setInterval()", replacement: "clock.setTimer(), re-armed in its own callback" },
  setImmediate: {
    shown: "setImmediate()",
    replacement: "await clock.sleep(0)",
    allowedIn: ["sim/kernel/simulation.ts"], // its microtask settling, see settleMicrotasks there
  },
  nextTick: {
    shown: "process.nextTick()",
    replacement: "await clock.sleep(0)",
    allowedIn: ["sim/kernel/simulation.ts"], // its microtask settling: a tick of its own would run between
  },
} as const satisfies Record<string, Ban>;

// Exact dotted paths (after dropping a `globalThis.`/`global.` prefix) that are banned.
const BANNED_PATHS = new Map<string, Ban>([
  ["Date.now", BANS.dateNow],
  ["Math.random", BANS.mathRandom],
  ["performance.now", BANS.performanceNow],
  ["process.hrtime", BANS.hrtime],
  ["process.nextTick", BANS.nextTick],
]);

// Names banned whatever they are reached through: `setTimeout`, `timers.setTimeout`,
// `crypto.randomUUID`, an imported `randomBytes`, …
const BANNED_NAMES = new Map<string, Ban>([
  ["randomUUID", BANS.randomUuid],
  ["randomBytes", BANS.randomBytes],
  ["randomInt", BANS.randomInt],
  ["getRandomValues", BANS.getRandomValues],
  ["setTimeout", BANS.setTimeout],
  ["setInterval", BANS.setInterval],
  ["setImmediate", BANS.setImmediate],
]);

/** A banned use found by `scanSource`. */
interface Violation {
  file: string;
  line: number;
  ban: Ban;
}

/** `file:line: what is banned; use what instead`. */
function formatViolation({ file, line, ban }: Violation): string {
  return `${file}:${line}: ${ban.shown} is banned in sim/ (docs/ARCHITECTURE.md, "Determinism contract"); use ${ban.replacement}`;
}

// The dotted path of an identifier or property-access chain, without a global-object prefix.
function dottedPath(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (!ts.isPropertyAccessExpression(node)) return undefined;
  const receiver = dottedPath(node.expression);
  if (receiver === undefined) return undefined;
  if (receiver === "globalThis" || receiver === "global") return node.name.text;
  return `${receiver}.${node.name.text}`;
}

// True where an identifier only names a member being declared (`{ setTimeout: … }`, a method
// called setTimeout) or is the member part of `x.setTimeout` (checked on the whole access).
function isNameOnly(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node;
  if (
    ts.isPropertyAssignment(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent) ||
    ts.isEnumMember(parent)
  ) {
    return parent.name === node;
  }
  return false;
}

function banFor(node: ts.Node): Ban | undefined {
  if (ts.isNewExpression(node) && dottedPath(node.expression) === "Date" && (node.arguments?.length ?? 0) === 0) {
    return BANS.newDate;
  }
  if (ts.isCallExpression(node) && dottedPath(node.expression) === "Date") return BANS.dateCall;
  if (ts.isPropertyAccessExpression(node)) {
    const dotted = dottedPath(node);
    return (dotted === undefined ? undefined : BANNED_PATHS.get(dotted)) ?? BANNED_NAMES.get(node.name.text);
  }
  if (ts.isIdentifier(node) && !isNameOnly(node)) return BANNED_NAMES.get(node.text);
  return undefined;
}

/** Finds the banned uses in one file's source text; `file` is relative to the repository root. */
function scanSource(file: string, text: string): Violation[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = new Map<string, Violation>();
  const visit = (node: ts.Node): void => {
    const ban = banFor(node);
    if (ban !== undefined && !(ban.allowedIn ?? []).includes(file)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      // One report per ban per line: `Date.now` is also seen as its inner identifiers.
      found.set(`${line} ${ban.shown}`, { file, line, ban });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.line - b.line);
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Every .ts file under sim/ that the contract covers.
function filesUnderContract(): string[] {
  return readdirSync(path.join(repoRoot, "sim"), { recursive: true, encoding: "utf8" })
    .map((relative) => `sim/${relative.split(path.sep).join("/")}`)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".bench.ts"))
    .filter((file) => file !== "sim/kernel/real-clock.ts")
    .sort();
}

describe("determinism contract: banned calls in sim/", () => {
  it("finds none outside the real-time adapter", () => {
    const files = filesUnderContract();
    // Guard against a scan that silently looks at nothing.
    expect(files).toContain("sim/kernel/simulation.ts");
    const violations = files.flatMap((file) => scanSource(file, readFileSync(path.join(repoRoot, file), "utf8")));
    expect(violations.map(formatViolation)).toEqual([]);
  });

  it("catches every planted banned call, naming file:line and the replacement", () => {
    const planted = [
      "const a = Date.now();",
      "const b = new Date();",
      "const c = Math.random();",
      "const d = performance.now();",
      "const e = crypto.randomUUID();",
      'import { randomUUID, randomBytes } from "node:crypto";',
      "const f = randomBytes(16);",
      "setTimeout(() => {}, 10);",
      "const g = setInterval(tick, 1000);",
      "setImmediate(tick);",
      "const h = globalThis.Date . now();",
      "const i = promisify(setTimeout);",
      "const j = process.hrtime.bigint();",
      "const k = Date();",
    ].join("\n");
    const messages = scanSource("sim/store/planted.ts", planted).map(formatViolation);
    expect(messages).toEqual([
      expect.stringMatching(/^sim\/store\/planted\.ts:1: Date\.now\(\) is banned .*; use clock\.nowMs\(\)$/),
      expect.stringMatching(/^sim\/store\/planted\.ts:2: new Date\(\) without an argument .*; use new Date\(clock\.nowMs\(\)\)$/),
      expect.stringMatching(/:3: Math\.random\(\) .*; use rng\.float\(\)$/),
      expect.stringMatching(/:4: performance\.now\(\) .*; use clock\.nowMs\(\)$/),
      expect.stringMatching(/:5: crypto\.randomUUID\(\) \/ randomUUID\(\) .*; use rng\.uuid\(\)$/),
      expect.stringMatching(/:6: crypto\.randomUUID\(\) .*; use rng\.uuid\(\)$/),
      expect.stringMatching(/:6: randomBytes\(\) .*; use rng\.bytes\(n\)$/),
      expect.stringMatching(/:7: randomBytes\(\) .*; use rng\.bytes\(n\)$/),
      expect.stringMatching(/:8: setTimeout\(\) .*; use clock\.setTimer\(delayMs, callback\)$/),
      expect.stringMatching(/:9: setInterval\(\) .*; use clock\.setTimer\(\), re-armed in its own callback$/),
      expect.stringMatching(/:10: setImmediate\(\) .*; use await clock\.sleep\(0\)$/),
      expect.stringMatching(/:11: Date\.now\(\)/),
      expect.stringMatching(/:12: setTimeout\(\)/),
      expect.stringMatching(/:13: process\.hrtime\(\)/),
      expect.stringMatching(/:14: Date\(\) called as a function/),
    ]);
  });

  it("ignores mentions in comments and strings, and the allowed replacements", () => {
    const clean = [
      "// never call Date.now() or setTimeout() here",
      "/* Math.random() */ const message = 'use rng.uuid() instead of crypto.randomUUID()';",
      "const t = `performance.now() ${clock.nowMs()}`;",
      "const d = new Date(clock.nowMs());",
      "const parsed = new Date('2024-01-01T00:00:00Z');",
      "const utc = Date.UTC(2024, 0, 1);",
      "clock.setTimer(10, () => {});",
      "const options = { setTimeout: 5 };",
      "interface Timers { setInterval(): void }",
    ].join("\n");
    expect(scanSource("sim/store/clean.ts", clean)).toEqual([]);
  });

  it("allows setImmediate only in the simulation's microtask settling", () => {
    expect(scanSource("sim/kernel/simulation.ts", "setImmediate(resolve);")).toEqual([]);
    expect(scanSource("sim/kernel/other.ts", "setImmediate(resolve);").map(formatViolation)).toEqual([
      expect.stringMatching(/^sim\/kernel\/other\.ts:1: setImmediate\(\)/),
    ]);
    // The exemption is for setImmediate only, not for the whole file.
    expect(scanSource("sim/kernel/simulation.ts", "Date.now();")).toHaveLength(1);
  });

  it("allows process.nextTick only there too", () => {
    expect(scanSource("sim/kernel/simulation.ts", "process.nextTick(resolve);")).toEqual([]);
    expect(scanSource("sim/actors/agent.ts", "process.nextTick(() => {});").map(formatViolation)).toEqual([
      expect.stringMatching(/^sim\/actors\/agent\.ts:1: process\.nextTick\(\) .*; use await clock\.sleep\(0\)$/),
    ]);
  });
});

// A small simulation that uses forked randomness, timers and async processes.
async function smallRunHash(seed: string): Promise<{ hash: string; count: number }> {
  const sim = new Simulation({ seed });
  const faults = sim.rng.fork("faults");
  const workload = sim.rng.fork("workload");
  for (let i = 0; i < 5; i++) {
    sim.spawn(`client-${i}`, async () => {
      for (let request = 0; request < 4; request++) {
        await sim.sleep(workload.exponential(100));
        const dropped = faults.bool(0.2);
        sim.record(`client-${i}`, dropped ? "dropped" : "request", { id: workload.uuid(), name: `pod-${workload.nameSuffix()}` });
      }
    });
  }
  sim.setTimer(250, () => sim.record("kernel", "checkpoint", { pending: sim.pendingEvents }));
  await sim.run();
  return { hash: sim.trace.hash(), count: sim.trace.count };
}

describe("determinism contract: same seed, same trace", () => {
  it("gives the same trace hash for the same seed", async () => {
    const first = await smallRunHash("replay-me");
    expect(first.count).toBe(21);
    expect(await smallRunHash("replay-me")).toEqual(first);
  });

  it("gives a different trace hash for a different seed", async () => {
    expect((await smallRunHash("replay-me")).hash).not.toBe((await smallRunHash("replay-me-2")).hash);
  });
});
