/**
 * `--controllers` (doc 2 §2.4): `*` enables every default-on controller, `foo` enables one, `-foo`
 * disables one. Kubernetes reads the list in this way: a controller is on if it is named, off if
 * named with `-`, and otherwise on exactly when `*` is present and it is on by default.
 */
import { knownControllers } from "../../spec/doc2/controllers.ts";

/** One entry of the list. */
export type ControllersEntry =
  | { readonly kind: "all"; readonly text: string }
  | { readonly kind: "enable" | "disable"; readonly name: string; readonly text: string }
  | { readonly kind: "invalid"; readonly text: string };

/** Classifies each entry of a `--controllers` list. */
export function parseControllersList(entries: readonly string[]): ControllersEntry[] {
  return entries.map((text) => {
    if (text === "*") return { kind: "all", text };
    const disable = text.startsWith("-");
    const name = disable ? text.slice(1) : text;
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) return { kind: "invalid", text };
    return { kind: disable ? "disable" : "enable", name, text };
  });
}

/** Whether `name` is a controller the controller manager knows. */
export function controllerKnown(name: string): boolean {
  return knownControllers.some((controller) => controller.name === name);
}

/** The controllers a list turns on, in the catalog's order (derivation doc2/2.4/controllers-star). */
export function enabledControllers(entries: readonly string[]): string[] {
  const parsed = parseControllersList(entries);
  const star = parsed.some((entry) => entry.kind === "all");
  const named = new Map<string, boolean>();
  for (const entry of parsed) if (entry.kind === "enable" || entry.kind === "disable") named.set(entry.name, entry.kind === "enable");
  return knownControllers
    .filter((controller) => named.get(controller.name) ?? (star && controller.enabledByDefault))
    .map((controller) => controller.name);
}
