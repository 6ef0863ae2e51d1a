/**
 * Feature gates: doc 2's `--feature-gates` (a comma list of `key=True|False`) and doc 3's
 * `featureGates` map, with Kubernetes' parsing (component-base featuregate `Set`): keys and values
 * are trimmed, empty items skipped, values are Go booleans, and later items override earlier ones.
 */
import { GoSyntaxError, parseGoBool } from "./go-scalars.ts";

/** A `--feature-gates` value that is not a list of `key=bool`. */
export class FeatureGateSyntaxError extends Error {}

/** Parses `A=true,B=false` into a map, in order; throws FeatureGateSyntaxError naming the bad item. */
export function parseFeatureGates(text: string): Map<string, boolean> {
  const gates = new Map<string, boolean>();
  for (const item of text.split(",")) {
    if (item.length === 0) continue;
    const equals = item.indexOf("=");
    const key = (equals === -1 ? item : item.slice(0, equals)).trim();
    if (equals === -1) throw new FeatureGateSyntaxError(`missing bool value for ${key}`);
    const valueText = item.slice(equals + 1).trim();
    try {
      gates.set(key, parseGoBool(valueText));
    } catch (error) {
      if (!(error instanceof GoSyntaxError)) throw error;
      throw new FeatureGateSyntaxError(`invalid value of ${key}=${valueText}, err: ${error.message}`);
    }
  }
  return gates;
}

/** Prints gates the way `--feature-gates` takes them, sorted by name as Kubernetes prints them. */
export function formatFeatureGates(gates: ReadonlyMap<string, boolean>): string {
  return [...gates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, on]) => `${name}=${on}`).join(",");
}

/** Whether `name` is on: the configured value, else the known default, else off. */
export function gateEnabled(
  configured: Readonly<Record<string, boolean>> | ReadonlyMap<string, boolean>,
  name: string,
  known: readonly { readonly name: string; readonly enabledByDefault: boolean }[],
): boolean {
  const value = configured instanceof Map ? configured.get(name) : (configured as Readonly<Record<string, boolean>>)[name];
  if (typeof value === "boolean") return value;
  return known.find((gate) => gate.name === name)?.enabledByDefault ?? false;
}
