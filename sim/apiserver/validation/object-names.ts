/**
 * Object name validation as a Kubernetes 1.26 API server does it, with its exact messages.
 *
 * Doc 1 only says every object has a unique name and that `generateName` makes the server pick
 * one (doc1/2.1/name/unique, doc1/2.2/name/generate-name); which strings are names, and what the
 * 422 says about one that is not, is Kubernetes behaviour (not shown in doc 1). The message text
 * is compared byte for byte with transcript create-invalid-name, so it is spelled out here
 * rather than paraphrased: a client (kubectl, a test) may match on it.
 */
import { goQuote } from "../responses/go-text.ts";

/**
 * The three name grammars of built-in kinds: RFC 1123 subdomain (most kinds), RFC 1123 label
 * (namespaces), RFC 1035 label (services).
 */
export type NameKind = "subdomain" | "label" | "dns1035" | "path-segment";

/** One entry of `details.causes` in a 422 Invalid Status (the JSON field of the type is `reason`). */
export interface NameCause {
  readonly reason: "FieldValueInvalid" | "FieldValueRequired";
  readonly message: string;
  readonly field: "metadata.name" | "metadata.generateName";
}

/** Longest RFC 1123 subdomain: 253 (Kubernetes behaviour, not shown in doc 1). */
export const maxSubdomainLength = 253;

/** Longest RFC 1123 or RFC 1035 label: 63 (Kubernetes behaviour, not shown in doc 1). */
export const maxLabelLength = 63;

/** Number of random characters the server appends to a generateName prefix (Kubernetes' SimpleNameGenerator). */
export const generateNameSuffixLength = 5;

/**
 * Longest generateName prefix kept before the suffix: 63 - 5 = 58, for every kind. Kubernetes
 * truncates to fit a 63-character label even where names may be 253-character subdomains
 * (a ConfigMap's generated name never exceeds 63), so this does not depend on the NameKind.
 */
export const maxGenerateNamePrefixLength = maxLabelLength - generateNameSuffixLength;

/** The `detail` of the Required cause when a create has neither name nor generateName. */
export const nameOrGenerateNameRequired = "name or generateName is required";

// Patterns and messages of k8s.io/apimachinery/pkg/util/validation, v1.26 wording. The pattern
// text appears verbatim inside the messages, so it is kept as the source of the RegExp too.
const LABEL_PATTERN = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN_PATTERN = `${LABEL_PATTERN}(\\.${LABEL_PATTERN})*`;
const DNS1035_PATTERN = "[a-z]([-a-z0-9]*[a-z0-9])?";

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

interface Grammar {
  readonly maxLength: number;
  readonly regex: RegExp;
  readonly mismatch: string;
}

const GRAMMARS: Readonly<Record<Exclude<NameKind, "path-segment">, Grammar>> = {
  subdomain: {
    maxLength: maxSubdomainLength,
    regex: new RegExp(`^${SUBDOMAIN_PATTERN}$`),
    mismatch: regexError(SUBDOMAIN_MESSAGE, SUBDOMAIN_PATTERN, ["example.com"]),
  },
  // Kubernetes 1.26 has no "must not contain dots" special case for labels (later releases
  // added one); a dotted namespace name gets the general label message.
  label: {
    maxLength: maxLabelLength,
    regex: new RegExp(`^${LABEL_PATTERN}$`),
    mismatch: regexError(LABEL_MESSAGE, LABEL_PATTERN, ["my-name", "123-abc"]),
  },
  dns1035: {
    maxLength: maxLabelLength,
    regex: new RegExp(`^${DNS1035_PATTERN}$`),
    mismatch: regexError(DNS1035_MESSAGE, DNS1035_PATTERN, ["my-name", "abc-123"]),
  },
};

/**
 * Kubernetes' RegexError text. The examples are joined with "', " then " or ", which gives the
 * double space ("'my-name',  or '123-abc'") real servers print; keep it, clients see it.
 */
export function regexError(message: string, pattern: string, examples: readonly string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${pattern}')`;
  const shown = examples.map((example, index) => `${index > 0 ? " or " : ""}'${example}', `).join("");
  return `${message} (e.g. ${shown}regex used for validation is '${pattern}')`;
}

/** Kubernetes' MaxLenError text. */
export function maxLengthError(length: number): string {
  return `must be no more than ${length} characters`;
}

/**
 * The problems Kubernetes reports for `name` under `kind`'s grammar, in its order (length
 * first, then pattern); empty when valid. Lengths count UTF-8 bytes, as Go's len() does.
 */
export function validateName(kind: NameKind, name: string): string[] {
  if (kind === "path-segment") return pathSegmentNameProblems(name);
  const grammar = GRAMMARS[kind];
  const problems: string[] = [];
  if (utf8Length(name) > grammar.maxLength) problems.push(maxLengthError(grammar.maxLength));
  if (!grammar.regex.test(name)) problems.push(grammar.mismatch);
  return problems;
}

/**
 * The problems of a name that must be a path segment (RBAC objects: ValidateRBACName, apimachinery's
 * IsValidPathSegmentName, its messages): not "." or "..", no "/" or "%", any length.
 */
function pathSegmentNameProblems(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const problems: string[] = [];
  for (const illegal of ["/", "%"]) if (name.includes(illegal)) problems.push(`may not contain '${illegal}'`);
  return problems;
}

/**
 * The problems Kubernetes reports for a generateName prefix: the name rules applied after
 * masking a trailing '-' (a prefix may end in '-', the random suffix follows it). The mask
 * reproduces Kubernetes' quirk of dropping the last two characters and appending "a": it changes
 * which prefixes pass ("a.-" passes, as on a real server), so it is not "fixed" here.
 */
export function validateGenerateName(kind: NameKind, prefix: string): string[] {
  const masked = prefix.length > 1 && prefix.endsWith("-") ? `${prefix.slice(0, -2)}a` : prefix;
  return validateName(kind, masked);
}

/** The name grammar of a built-in resource: namespaces are labels, services DNS-1035 labels, the rest subdomains. */
export function nameKindForResource(resource: string): NameKind {
  if (resource === "namespaces") return "label";
  if (resource === "services") return "dns1035";
  return "subdomain";
}

/**
 * The name the server gives an object created with generateName `prefix`: the prefix cut to
 * maxGenerateNamePrefixLength, then `suffix` (the random part, drawn by the caller from its Rng
 * so runs stay deterministic).
 */
export function nameFromGenerateName(prefix: string, suffix: string): string {
  return `${prefix.length > maxGenerateNamePrefixLength ? prefix.slice(0, maxGenerateNamePrefixLength) : prefix}${suffix}`;
}

/**
 * The causes of the 422 a create gets for its metadata names, in Kubernetes' order: generateName
 * problems, then the name's (or Required when there is no name). `name` is the name after
 * generation. Empty when the names are valid.
 */
export function nameValidationCauses(kind: NameKind, name: string | undefined, generateName?: string): NameCause[] {
  const causes: NameCause[] = [];
  if (generateName !== undefined && generateName !== "") {
    for (const problem of validateGenerateName(kind, generateName)) {
      causes.push({ reason: "FieldValueInvalid", message: invalidValueMessage(generateName, problem), field: "metadata.generateName" });
    }
  }
  if (name === undefined || name === "") {
    causes.push({ reason: "FieldValueRequired", message: `Required value: ${nameOrGenerateNameRequired}`, field: "metadata.name" });
  } else {
    for (const problem of validateName(kind, name)) {
      causes.push({ reason: "FieldValueInvalid", message: invalidValueMessage(name, problem), field: "metadata.name" });
    }
  }
  return causes;
}

/**
 * The top-level message of a 422 Invalid: `<Kind> "<name>" is invalid: <field>: <cause>`, several
 * causes as `[a, b]` with duplicates dropped (Kubernetes' error aggregate). `qualifiedKind` is the
 * kind, with `.group` for named groups (`Deployment.apps`).
 */
export function invalidObjectMessage(qualifiedKind: string, name: string, causes: readonly { readonly message: string; readonly field?: string }[]): string {
  const subject = `${qualifiedKind} ${goQuote(name)} is invalid`;
  const lines = [...new Set(causes.map((cause) => (cause.field === undefined ? cause.message : `${cause.field}: ${cause.message}`)))];
  if (lines.length === 0) return subject;
  return `${subject}: ${lines.length === 1 ? lines[0]! : `[${lines.join(", ")}]`}`;
}

/** A FieldValueInvalid cause message: `Invalid value: "<value>": <detail>` (Go-quoted value). */
export function invalidValueMessage(value: string, detail: string): string {
  return detail === "" ? `Invalid value: ${goQuote(value)}` : `Invalid value: ${goQuote(value)}: ${detail}`;
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
