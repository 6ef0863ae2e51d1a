/**
 * Validation of a CredentialProviderConfig file (doc 3 §2.1, §2.2): the same pipeline as the node
 * agent configuration (parse, dialect, structure, values), plus the rules about the providers list
 * that no single schema node can state.
 */
import { dialects, type DialectName } from "../../spec/dialects.ts";
import { credentialProviderConfigSchema } from "../../spec/doc3/credential-provider-schema.ts";
import { nodeAgentApiVersion } from "../../spec/doc3/node-agent-schema.ts";
import { parseConfigText } from "./config-file.ts";
import { finding, hasErrors, sortFindings, type Finding } from "./finding.ts";
import { formatGoDuration, parseGoDuration } from "./go-duration.ts";
import { checkStructure, checkValues, isPlainObject } from "./schema-check.ts";
import { detectDialect, doc3Severity, withoutTypeFields } from "./validate-node-agent-config.ts";

/** One credential provider, as validated. */
export interface CredentialProvider {
  readonly name: string;
  readonly matchImages: readonly string[];
  readonly defaultCacheDuration: string;
  readonly apiVersion: string;
  readonly args?: readonly string[];
  readonly env?: readonly { readonly name: string; readonly value: string }[];
}

/** The result of validating a credential provider configuration. */
export interface CredentialProviderValidation {
  readonly dialect: DialectName;
  /** The providers in file order; undefined when the file did not parse. */
  readonly providers: readonly CredentialProvider[] | undefined;
  /** The configuration as validated (durations as Go prints them); undefined when the file did not parse. */
  readonly config: Readonly<Record<string, unknown>> | undefined;
  readonly findings: readonly Finding[];
  readonly valid: boolean;
}

/** Validates the text of a YAML or JSON CredentialProviderConfig. */
export function validateCredentialProviderConfigText(text: string): CredentialProviderValidation {
  const parsed = parseConfigText(text);
  if (!parsed.ok) return { dialect: "orb", providers: undefined, config: undefined, findings: [finding("error", "doc3/2/file-syntax", "(file)", undefined, parsed.error)], valid: false };
  return validateCredentialProviderConfig(parsed.value);
}

/** Validates a decoded CredentialProviderConfig. */
export function validateCredentialProviderConfig(document: unknown): CredentialProviderValidation {
  if (!isPlainObject(document)) {
    return { dialect: "orb", providers: undefined, config: undefined, findings: [finding("error", "doc3/2/file-syntax", "(file)", undefined, "the file must hold one object (a mapping)")], valid: false };
  }
  const { dialect, findings } = detectDialect(document, (name) => dialects.find((d) => d.name === name)!.nodeAgentConfig.credentialProviderKind);
  const schema = withoutTypeFields(credentialProviderConfigSchema(dialect));
  const { apiVersion: _apiVersion, kind: _kind, ...body } = document;
  const structure = checkStructure(body, schema, doc3Severity);
  findings.push(...structure.findings);
  const config = structure.pruned as Record<string, unknown>;
  findings.push(...checkValues(config, schema, doc3Severity));
  const providers = (Array.isArray(config["providers"]) ? config["providers"] : []) as Record<string, unknown>[];
  findings.push(...providerListFindings(config, providers));
  const sorted = sortFindings(findings);
  const validated = providers.map(toProvider);
  const kind = dialects.find((d) => d.name === dialect)!.nodeAgentConfig.credentialProviderKind;
  return { dialect, providers: validated, config: { apiVersion: nodeAgentApiVersion(dialect), kind, providers: validated }, findings: sorted, valid: !hasErrors(sorted) };
}

// doc3/2.1/providers-required (a missing list), doc3/2.2/match-images-required (a missing list),
// doc3/2.2/provider-name and doc3/2.1/provider-names-unique.
function providerListFindings(config: Readonly<Record<string, unknown>>, providers: readonly Record<string, unknown>[]): Finding[] {
  const findings: Finding[] = [];
  if (config["providers"] === undefined) findings.push(finding("error", "doc3/2.1/providers-required", "providers", undefined, "at least 1 item in providers is required"));
  const seen = new Set<string>();
  providers.forEach((provider, index) => {
    if (provider["matchImages"] === undefined) {
      findings.push(finding("error", "doc3/2.2/match-images-required", `providers[${index}].matchImages`, undefined, "at least 1 item in matchImages is required"));
    }
    const name = provider["name"];
    if (typeof name !== "string") return;
    const problem = providerNameProblem(name);
    if (problem !== undefined) findings.push(finding("error", "doc3/2.2/provider-name", `providers[${index}].name`, name, problem));
    if (seen.has(name)) findings.push(finding("error", "doc3/2.1/provider-names-unique", `providers[${index}].name`, name, `duplicate provider name ${JSON.stringify(name)}`));
    seen.add(name);
  });
  return findings;
}

function providerNameProblem(name: string): string | undefined {
  if (name === "") return "provider name is required: the plugin executable's file name";
  if (name.includes("/")) return "provider name cannot contain '/'";
  if (name.includes(" ")) return "provider name cannot contain spaces";
  if (name === "." || name === "..") return `provider name cannot be '${name}'`;
  return undefined;
}

function toProvider(provider: Readonly<Record<string, unknown>>): CredentialProvider {
  const duration = typeof provider["defaultCacheDuration"] === "string" ? provider["defaultCacheDuration"] : "0s";
  let printed = duration;
  try {
    printed = formatGoDuration(parseGoDuration(duration));
  } catch {
    // Already reported as a type error; keep the text.
  }
  return {
    name: typeof provider["name"] === "string" ? provider["name"] : "",
    matchImages: Array.isArray(provider["matchImages"]) ? (provider["matchImages"] as string[]) : [],
    defaultCacheDuration: printed,
    apiVersion: typeof provider["apiVersion"] === "string" ? provider["apiVersion"] : "",
    ...(Array.isArray(provider["args"]) && { args: provider["args"] as string[] }),
    ...(Array.isArray(provider["env"]) && { env: provider["env"] as { name: string; value: string }[] }),
  };
}
