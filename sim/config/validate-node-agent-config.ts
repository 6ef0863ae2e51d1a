/**
 * Validation of a node agent configuration file (doc 3): parse it, find its dialect from apiVersion
 * and kind, check its structure, default it as the kubelet does, check every value and every
 * cross-field rule, and report every finding at once.
 */
import { dialects, type DialectName } from "../../spec/dialects.ts";
import type { FieldSchema } from "../../spec/doc3/config-schema.ts";
import { nodeAgentApiVersion, nodeAgentConfigurationSchema } from "../../spec/doc3/node-agent-schema.ts";
import { doc3Rules } from "../../spec/doc3/rules.ts";
import { parseConfigText } from "./config-file.ts";
import { finding, hasErrors, sortFindings, type Finding } from "./finding.ts";
import { formatGoDuration, parseGoDuration } from "./go-duration.ts";
import { checkNodeAgentConfig } from "./node-agent-checks.ts";
import { checkStructure, checkValues, isPlainObject, type SeverityOf } from "./schema-check.ts";
import { applySchemaDefaults, printDurations } from "./schema-defaults.ts";

/** The severity of a doc 3 rule. */
export const doc3Severity: SeverityOf = (ruleId) => doc3Rules.find((rule) => rule.id === ruleId)?.severity ?? "error";

/** The result of validating a node agent configuration. */
export interface NodeAgentValidation {
  /** The dialect the file's apiVersion names (orb when it names none). */
  readonly dialect: DialectName;
  /** The fully defaulted configuration, durations printed as Go prints them; undefined when the file did not parse. */
  readonly config: Readonly<Record<string, unknown>> | undefined;
  /** Errors first, then warnings. */
  readonly findings: readonly Finding[];
  readonly valid: boolean;
}

/** Validates the text of a YAML or JSON node agent configuration file. */
export function validateNodeAgentConfigText(text: string): NodeAgentValidation {
  const parsed = parseConfigText(text);
  if (!parsed.ok) return invalidFile(parsed.error);
  return validateNodeAgentConfig(parsed.value);
}

function invalidFile(message: string): NodeAgentValidation {
  const findings = [finding("error", "doc3/2/file-syntax", "(file)", undefined, message)];
  return { dialect: "orb", config: undefined, findings, valid: false };
}

/** The dialect whose group and kind a document names, with findings when it names none or mixes them. */
export function detectDialect(document: Readonly<Record<string, unknown>>, kindOf: (dialect: DialectName) => string): { dialect: DialectName; findings: Finding[] } {
  const apiVersion = document["apiVersion"];
  const kind = document["kind"];
  const byVersion = dialects.find((dialect) => nodeAgentApiVersion(dialect.name) === apiVersion);
  if (byVersion === undefined) {
    const expected = dialects.map((dialect) => nodeAgentApiVersion(dialect.name)).join(" or ");
    const byKind = dialects.find((dialect) => kindOf(dialect.name) === kind)?.name ?? "orb";
    return { dialect: byKind, findings: [finding("error", "doc3/2/api-version-kind", "apiVersion", apiVersion, `apiVersion must be ${expected}`)] };
  }
  const expectedKind = kindOf(byVersion.name);
  if (kind !== expectedKind) {
    return { dialect: byVersion.name, findings: [finding("error", "doc3/2/api-version-kind", "kind", kind, `kind must be ${expectedKind} for ${String(apiVersion)}`)] };
  }
  return { dialect: byVersion.name, findings: [] };
}

/** Validates a decoded node agent configuration (the parsed YAML or JSON). */
export function validateNodeAgentConfig(document: unknown): NodeAgentValidation {
  if (!isPlainObject(document)) return invalidFile("the file must hold one object (a mapping)");
  const { dialect, findings } = detectDialect(document, (name) => dialects.find((d) => d.name === name)!.nodeAgentConfig.kind);
  const schema = nodeAgentConfigurationSchema(dialect);
  const bodySchema = withoutTypeFields(schema);
  const { apiVersion: _apiVersion, kind: _kind, ...body } = document;
  const structure = checkStructure(body, bodySchema, doc3Severity);
  findings.push(...structure.findings);
  const given = structure.pruned as Record<string, unknown>;
  const defaulted = applySchemaDefaults(applySpecialDefaults(given), bodySchema);
  findings.push(...checkValues(defaulted, bodySchema, doc3Severity));
  findings.push(...checkNodeAgentConfig({ config: defaulted, given }));
  const config = { apiVersion: nodeAgentApiVersion(dialect), kind: (schema.properties!["kind"]!.const as string), ...(printDurations(defaulted, bodySchema) as Record<string, unknown>) };
  const sorted = sortFindings(findings);
  return { dialect, config, findings: sorted, valid: !hasErrors(sorted) };
}

/** The schema without apiVersion and kind, which detectDialect checks. */
export function withoutTypeFields(schema: FieldSchema): FieldSchema {
  const { apiVersion: _apiVersion, kind: _kind, ...properties } = schema.properties ?? {};
  return { ...schema, properties, required: (schema.required ?? []).filter((name) => name !== "apiVersion" && name !== "kind") };
}

// Defaults that read other fields (doc3/2.4/node-status-report-frequency-default) or fix values
// (doc3/2.6/pod-pids-limit-negative), applied before the per-field defaults, as the kubelet orders them.
function applySpecialDefaults(given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...given };
  const update = nonZeroDuration(given["nodeStatusUpdateFrequency"]);
  if (nonZeroDuration(given["nodeStatusReportFrequency"]) === undefined && update !== undefined) {
    out["nodeStatusReportFrequency"] = formatGoDuration(update);
  }
  if (typeof given["podPidsLimit"] === "number" && given["podPidsLimit"] < 0) out["podPidsLimit"] = -1;
  return out;
}

function nonZeroDuration(value: unknown): bigint | undefined {
  if (typeof value !== "string") return undefined;
  const nanos = parseGoDuration(value);
  return nanos === 0n ? undefined : nanos;
}
