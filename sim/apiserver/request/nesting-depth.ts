/**
 * A bound on how deeply a request body may nest objects and arrays, checked before anything
 * recursive sees the body (issue #14). Kubernetes 1.26 refuses more than 10000 levels (Go's
 * encoding/json scanner, "invalid character '{' exceeded max depth", and go-yaml, "exceeded max
 * depth of 10000"; recorded against a real kube-apiserver 1.26.4: depth 10000 accepted, 10001
 * refused with 400). The embedded server cannot hold 10000: on Node's default stack JSON.stringify
 * fails near 4100 levels, structuredClone near 1900, the yaml package's output near 600 and its
 * parser kills the process near 800 (a RegExp compiled with the stack exhausted). So it refuses
 * past 512 levels, with Kubernetes' message shapes; no Kubernetes object comes near either bound.
 *
 * Depth counts as Go's scanner does: `{}` is depth 1, `{"a":[]}` depth 2.
 */

/** The deepest nesting a request body (or a patched object) may have. */
export const maxNestingDepth = 512;

/**
 * The bracket (`{` or `[`) that takes a JSON text past `limit`, or undefined. Counts brackets
 * outside strings only; the text need not be valid JSON (JSON.parse judges that afterwards).
 */
export function jsonDepthExcess(text: string, limit: number = maxNestingDepth): "{" | "[" | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (++depth > limit) return code === 0x7b ? "{" : "[";
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      depth--;
    }
  }
  return undefined;
}

/**
 * Whether a decoded value nests deeper than `limit`. Iterative, so any depth is safe to ask about;
 * a value reached twice (YAML aliases share nodes) is walked again only when reached deeper, so
 * shared and even cyclic values end.
 */
export function exceedsNestingDepth(value: unknown, limit: number = maxNestingDepth): boolean {
  const deepestSeen = new Map<object, number>();
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    if ((deepestSeen.get(node) ?? 0) >= depth) continue;
    deepestSeen.set(node, depth);
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/** How deeply `value` nests (0 for a scalar), counting no further than `limit + 1`. Iterative. */
export function nestingDepthOf(value: unknown, limit: number = maxNestingDepth): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
}
