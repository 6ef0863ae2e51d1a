/**
 * The layout of conformance/cases/, enforced: a case file (each .ts file directly in this folder,
 * tests and index.ts aside) takes its helpers from support/, conformance/client/, spec/ and the
 * like, never from another case file, so each can be read, split or moved on its own. support/
 * imports no case file either, or a case file could reach another through it.
 *
 * Imports are read with the TypeScript compiler's pre-processor (ts.preProcessFile): static
 * imports, `export … from` and dynamic `import()`, not names in comments or strings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const CASES_DIR = path.dirname(fileURLToPath(import.meta.url));
const SUPPORT_DIR = path.join(CASES_DIR, "support");

/**
 * Exempt: index.ts assembles the suite, so it must import every case file (and nothing here
 * imports it). It holds no cases and no helpers of its own.
 */
const ASSEMBLER = "index.ts";

/** The .ts files directly in `dir`, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && statSync(path.join(dir, name)).isFile())
    .sort();
}

/** The case files: every .ts file directly in conformance/cases/ but tests and the assembler. */
function caseFiles(): string[] {
  return sourceFiles(CASES_DIR).filter((name) => name !== ASSEMBLER);
}

/** Where a relative import resolves to, as NodeNext would (an extensionless one tried as .ts). */
function resolveImport(fromFile: string, specifier: string): string {
  const target = path.resolve(path.dirname(fromFile), specifier);
  if (existsSync(target) && statSync(target).isDirectory()) return path.join(target, "index.ts");
  if (!existsSync(target) && existsSync(`${target}.ts`)) return `${target}.ts`;
  return target;
}

/**
 * The imports in `source` (the text of `file`) whose target is a file directly in
 * conformance/cases/ other than `file` itself, each as `<file>:<line> imports "<specifier>"`.
 */
function caseFileImports(file: string, source: string): string[] {
  const found: string[] = [];
  for (const imported of ts.preProcessFile(source, true, true).importedFiles) {
    if (!imported.fileName.startsWith(".")) continue;
    const target = resolveImport(file, imported.fileName);
    if (path.dirname(target) !== CASES_DIR || target === file) continue;
    const line = source.slice(0, imported.pos).split("\n").length;
    found.push(`${path.relative(CASES_DIR, file)}:${line} imports "${imported.fileName}", the case file ${path.basename(target)}`);
  }
  return found;
}

function caseFileImportsIn(dir: string, names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    return caseFileImports(file, readFileSync(file, "utf8"));
  });
}

describe("imports of conformance/cases", () => {
  it("finds the case files, and leaves out tests, support/ and the assembler", () => {
    const names = caseFiles();
    expect(names.length).toBeGreaterThan(10);
    expect(names).toContain("paging.ts");
    expect(names).not.toContain(ASSEMBLER);
    expect(names.some((name) => name.endsWith(".test.ts"))).toBe(false);
  });

  it("no case file imports another case file (helpers live in support/)", () => {
    expect(caseFileImportsIn(CASES_DIR, caseFiles())).toEqual([]);
  });

  it("no file in support/ imports a case file", () => {
    expect(caseFileImportsIn(SUPPORT_DIR, sourceFiles(SUPPORT_DIR))).toEqual([]);
  });

  it("the check sees an import of a case file in every form, and nothing else", () => {
    const file = path.join(CASES_DIR, "example-case.ts");
    const source = [
      '// import { q } from "./comment.ts" is only a comment',
      'import { defineCases } from "../case-definition.ts";',
      'import { q } from "./support/query.ts";',
      'import { crudNameCases } from "./crud-names.ts";',
      'import type { Scope } from "./paging";',
      'export { pagingCases } from "./paging.ts";',
      'const lazy = await import("./health.ts");',
      'import { self } from "./example-case.ts";',
      'const text = "from \\"./errors.ts\\"";',
    ].join("\n");
    expect(caseFileImports(file, source)).toEqual([
      'example-case.ts:4 imports "./crud-names.ts", the case file crud-names.ts',
      'example-case.ts:5 imports "./paging", the case file paging.ts',
      'example-case.ts:6 imports "./paging.ts", the case file paging.ts',
      'example-case.ts:7 imports "./health.ts", the case file health.ts',
    ]);
  });
});
