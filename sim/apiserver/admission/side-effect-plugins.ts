/**
 * Admission plugins declared with side effects (doc 1 §4.4.5): a dry-run request that would reach
 * one fails, since the plugin cannot promise to skip its side effects; `sideEffects: None` and
 * `NoneOnDryRun` pass. The built-in plugins support dry-run; these stand in for webhooks.
 */
import { badRequest } from "../responses/api-error.ts";

/** A webhook-like plugin: the resources it matches ("*" for all) and what it declares. */
export interface SideEffectPlugin {
  readonly name: string;
  readonly resources: readonly string[];
  readonly sideEffects: "None" | "NoneOnDryRun" | "Some" | "Unknown";
}

/** Parses `NAME=RES[,RES…]:SIDEEFFECTS`, the form of `serve --admission-plugin`. */
export function parseSideEffectPlugin(text: string): SideEffectPlugin {
  const match = /^([a-z0-9.-]+)=([a-z0-9.,*/-]+):(None|NoneOnDryRun|Some|Unknown)$/.exec(text);
  if (match === null) throw new Error(`admission plugin ${JSON.stringify(text)}: want NAME=RESOURCE[,RESOURCE…]:None|NoneOnDryRun|Some|Unknown`);
  return { name: match[1]!, resources: match[2]!.split(","), sideEffects: match[3] as SideEffectPlugin["sideEffects"] };
}

/** Throws, for a dry run of `resource`, when a plugin with side effects matches it (Kubernetes: 400). */
export function checkDryRunAllowed(plugins: readonly SideEffectPlugin[], resource: string): void {
  for (const plugin of plugins) {
    const matches = plugin.resources.includes("*") || plugin.resources.includes(resource);
    if (matches && (plugin.sideEffects === "Some" || plugin.sideEffects === "Unknown")) {
      throw badRequest(`admission webhook "${plugin.name}" does not support dry run`);
    }
  }
}
