/** States the case's objects were in (data.v and resourceVersion), as the resourceVersion cases compare them. */
import { check } from "../../check.ts";
import { fieldAt } from "../../client/json-fields.ts";
import { metadataOf } from "./object-body.ts";
import type { Scope } from "./scoped-objects.ts";

/** A state an object was in: its data.v and resourceVersion. */
export interface Version {
  readonly v: string;
  readonly resourceVersion: string;
}

/** The state of `object` (anything a server sent; a missing field reads "undefined"). */
export function versionOf(object: unknown): Version {
  return { v: String(fieldAt(object, "data", "v")), resourceVersion: String(metadataOf(object).resourceVersion) };
}

/** States for a failure message: `name=v@resourceVersion, …`. */
export function show(state: ReadonlyMap<string, Version>): string {
  return [...state].map(([name, version]) => `${name}=${version.v}@${version.resourceVersion}`).join(", ");
}

/** Name → state of the case's items, sorted by name; fails when an object comes twice. */
export function stateOf(items: readonly unknown[], objects: Scope): Map<string, Version> {
  const ours = items.filter((item) => objects.ours(metadataOf(item).name));
  const names = ours.map((item) => String(metadataOf(item).name));
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  check(repeated.length === 0, `the same object came more than once: ${[...new Set(repeated)].join(", ")}`);
  return new Map(ours.map((item): [string, Version] => [String(metadataOf(item).name), versionOf(item)]).sort(([a], [b]) => a.localeCompare(b)));
}

/** Whether two states hold the same objects, each at the same data.v and resourceVersion. */
export function sameState(actual: ReadonlyMap<string, Version>, expected: ReadonlyMap<string, Version>): boolean {
  if (actual.size !== expected.size) return false;
  for (const [name, version] of expected) {
    const got = actual.get(name);
    if (got === undefined || got.v !== version.v || got.resourceVersion !== version.resourceVersion) return false;
  }
  return true;
}
