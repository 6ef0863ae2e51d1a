/**
 * A set of field paths, as structured-merge-diff keeps the fields a manager owns, and its
 * `FieldsV1` encoding in metadata.managedFields: a tree whose keys are path elements (`f:name` a
 * field, `k:{"name":"c"}` a list item by its keys, `v:"x"` an item of a set, `i:0` an item of an
 * atomic-less list without keys), `{}` for a leaf, and `".": {}` where a path that has children
 * is itself in the set (a list item or a map a manager created as a whole).
 */

/** One step of a path, in its FieldsV1 spelling (`f:data`, `k:{"name":"main"}`, `v:"a"`, `i:0`). */
export type PathElement = string;

/** A mutable set of paths, as a trie. */
export class FieldSet {
  /** Whether the path that leads here is itself a member. */
  member = false;
  /**
   * The sets under each path element, made with the first: most nodes are leaves, and a Map for
   * each was a third of what a create's managed fields allocated (issue #20).
   */
  private childSets: Map<PathElement, FieldSet> | undefined;

  /** The set under `element`, if any path passes there. */
  child(element: PathElement): FieldSet | undefined {
    return this.childSets?.get(element);
  }

  /** The sets under each path element, in the order they were added. */
  children(): Iterable<[PathElement, FieldSet]> {
    return this.childSets ?? NO_CHILDREN;
  }

  get childCount(): number {
    return this.childSets?.size ?? 0;
  }

  /** Puts `set` under `element`. */
  setChild(element: PathElement, set: FieldSet): void {
    (this.childSets ??= new Map()).set(element, set);
  }

  /** The set under `element`, made empty if there was none. */
  childOrNew(element: PathElement): FieldSet {
    let child = this.childSets?.get(element);
    if (child === undefined) {
      child = new FieldSet();
      this.setChild(element, child);
    }
    return child;
  }

  /** The set a FieldsV1 object describes. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) return set;
    for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
      if (key === ".") {
        set.member = true;
        continue;
      }
      const child = FieldSet.fromFieldsV1(value);
      // `{}` under a key: the path is a leaf member.
      if (child.childCount === 0) child.member = true;
      set.setChild(key, child);
    }
    return set;
  }

  /** The FieldsV1 object of this set: children in structured-merge-diff's order, `.` first. */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.childSets === undefined) return out;
    if (this.member) out["."] = {};
    for (const key of [...this.childSets.keys()].sort(comparePathElements)) {
      out[key] = this.childSets.get(key)!.toFieldsV1();
    }
    return out;
  }

  /** Adds `path`; its node. */
  insert(path: readonly PathElement[]): FieldSet {
    let node: FieldSet = this;
    for (const element of path) node = node.childOrNew(element);
    node.member = true;
    return node;
  }

  has(path: readonly PathElement[]): boolean {
    const node = this.at(path);
    return node !== undefined && node.member;
  }

  /** The subtree under `path`, if any path passes there. */
  at(path: readonly PathElement[]): FieldSet | undefined {
    let node: FieldSet | undefined = this;
    for (const element of path) {
      node = node.child(element);
      if (node === undefined) return undefined;
    }
    return node;
  }

  /** Whether no path is a member. */
  isEmpty(): boolean {
    if (this.member) return false;
    for (const [, child] of this.children()) if (!child.isEmpty()) return false;
    return true;
  }

  /** Every member path, depth first, in encoding order. */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    if (this.member) out.push([...prefix]);
    for (const [key, child] of [...this.children()].sort(([a], [b]) => comparePathElements(a, b))) {
      out.push(...child.paths([...prefix, key]));
    }
    return out;
  }

  // The operations below walk the two tries side by side. They answered first by listing every
  // member path and inserting the ones kept, which was most of what an Update entry cost (a Pod's
  // create spent a quarter of its time on managed fields; issue #20). A result holds only the
  // nodes on the way to a member, as inserting the member paths would leave it.

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    addMembers(out, this);
    addMembers(out, other);
    return out;
  }

  /** The members of this set that are not members of `other` (not recursive: a member's children stay). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    selectMembers(out, this, other, "difference", true);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    selectMembers(out, this, other, "intersection", true);
    return out;
  }

  /** The members of this set that are neither in `other` nor under a member of it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    selectMembers(out, this, other, "recursive-difference", true);
    return out;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    addMembers(out, this);
    return out;
  }
}

/** Adds the members of `source` to `target`; whether there were any. */
function addMembers(target: FieldSet, source: FieldSet): boolean {
  let added = source.member;
  if (source.member) target.member = true;
  for (const [element, child] of source.children()) {
    const existing = target.child(element);
    const into = existing ?? new FieldSet();
    if (!addMembers(into, child)) continue;
    added = true;
    if (existing === undefined) target.setChild(element, into);
  }
  return added;
}

/**
 * Adds to `target` the members of `source` the rule keeps, `other` being the node of the other
 * set at the same path (if any); whether it added any. The empty path (the root) is never under
 * a member of `other`.
 */
function selectMembers(
  target: FieldSet,
  source: FieldSet,
  other: FieldSet | undefined,
  rule: "difference" | "intersection" | "recursive-difference",
  root: boolean,
): boolean {
  const inOther = other?.member === true;
  if (rule === "recursive-difference" && inOther && !root) return false;
  if (rule === "intersection" && other === undefined) return false;
  let added = false;
  if (source.member && (rule === "intersection" ? inOther : rule === "difference" ? !inOther : true)) {
    target.member = true;
    added = true;
  }
  for (const [element, child] of source.children()) {
    const into = new FieldSet();
    if (!selectMembers(into, child, other?.child(element), rule, false)) continue;
    target.setChild(element, into);
    added = true;
  }
  return added;
}

const NO_CHILDREN: ReadonlyMap<PathElement, FieldSet> = new Map();

// structured-merge-diff orders path elements: field names, then keys, then values, then indexes.
const KIND_ORDER: Readonly<Record<string, number>> = { f: 0, k: 1, v: 2, i: 3 };

function comparePathElements(a: PathElement, b: PathElement): number {
  const byKind = (KIND_ORDER[a[0]!] ?? 9) - (KIND_ORDER[b[0]!] ?? 9);
  if (byKind !== 0) return byKind;
  if (a[0] === "i") return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The path element of a field. */
export function fieldElement(name: string): PathElement {
  return `f:${name}`;
}

/** The path element of a list item by its keys: `k:` and the keys as JSON, sorted by name, as structured-merge-diff writes them. */
export function keyElement(keys: Readonly<Record<string, unknown>>): PathElement {
  const sorted = Object.keys(keys).sort();
  return `k:{${sorted.map((name) => `${JSON.stringify(name)}:${JSON.stringify(keys[name])}`).join(",")}}`;
}

/** The path element of an item of a set. */
export function valueElement(value: unknown): PathElement {
  return `v:${JSON.stringify(value)}`;
}

/** The path element of an item by position. */
export function indexElement(index: number): PathElement {
  return `i:${index}`;
}

/**
 * A path as Kubernetes prints it in a conflict: `.data.x`, `.spec.containers[name="main"].image`,
 * `.metadata.finalizers[="a"]`, `.items[0]`.
 */
export function pathText(path: readonly PathElement[]): string {
  let out = "";
  for (const element of path) {
    const body = element.slice(2);
    if (element.startsWith("f:")) out += `.${body}`;
    else if (element.startsWith("k:")) {
      const keys = JSON.parse(body) as Record<string, unknown>;
      out += `[${Object.entries(keys)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join(",")}]`;
    } else if (element.startsWith("v:")) out += `[=${body}]`;
    else out += `[${body}]`;
  }
  return out;
}
