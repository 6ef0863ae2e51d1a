/**
 * How deeply a YAML text nests, measured before the yaml package builds values from it (issue #14).
 * Its composer recurses once per level, and near 800 levels (`[[[...` or `- - - ...`) a RegExp
 * compiled with the stack nearly exhausted aborts the whole process ("RegExpCompiler Allocation
 * failed"), which no try/catch can stop. The package's CST parser keeps an explicit stack (checked to
 * 100000 levels), so its tree is walked here iteratively: flow collections, block mappings and block
 * sequences each count one level, exactly the nesting the composer would recurse through.
 */
import { Parser } from "yaml";
import { maxNestingDepth } from "./nesting-depth.ts";

/** The 1-based line where a YAML text first nests past `limit`, or undefined. */
export function yamlDepthExcess(text: string, limit: number = maxNestingDepth): { line: number } | undefined {
  for (const token of new Parser().parse(text)) {
    const pending: Array<[unknown, number]> = [[token, 0]];
    while (pending.length > 0) {
      const [node, depth] = pending.pop()!;
      if (node === null || typeof node !== "object") continue;
      const cst = node as { type?: string; offset?: number; value?: unknown; key?: unknown; items?: Array<{ key?: unknown; value?: unknown }> };
      const collection = cst.type === "block-map" || cst.type === "block-seq" || cst.type === "flow-collection";
      const level = collection ? depth + 1 : depth;
      if (level > limit) return { line: lineAt(text, cst.offset ?? 0) };
      if (cst.value !== undefined) pending.push([cst.value, level]);
      for (const item of cst.items ?? []) {
        if (item.key !== undefined) pending.push([item.key, level]);
        if (item.value !== undefined) pending.push([item.value, level]);
      }
    }
  }
  return undefined;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text.charCodeAt(index) === 0x0a) line++;
  return line;
}
