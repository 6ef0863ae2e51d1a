/**
 * The syntax of label keys and values, annotation keys and finalizer names (qualified names), with
 * the messages of k8s.io/apimachinery/pkg/util/validation in v1.26. Doc 1 leaves labels,
 * annotations and the form of finalizer names open (gap doc1/2.2/other-fields); the texts below
 * were checked byte for byte against a kube-apiserver 1.26.4
 * (spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl, transcripts
 * labels-*, annotations-*, finalizers-*).
 */
import { maxLabelLength, maxLengthError, regexError, validateName } from "./object-names.ts";

// The pattern text appears verbatim in the messages, so it is the source of the RegExp too.
const QUALIFIED_NAME_PATTERN = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_REGEX = new RegExp(`^${QUALIFIED_NAME_PATTERN}$`);
const QUALIFIED_NAME_MISMATCH = regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_PATTERN, ["MyName", "my.name", "123-abc"]);

const LABEL_VALUE_PATTERN = `(${QUALIFIED_NAME_PATTERN})?`;
const LABEL_VALUE_REGEX = new RegExp(`^${LABEL_VALUE_PATTERN}$`);
const LABEL_VALUE_MISMATCH = regexError(
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  LABEL_VALUE_PATTERN,
  ["MyValue", "my_value", "12345"],
);

/** Longest name part of a qualified name, and longest label value: 63 bytes (Kubernetes 1.26; transcripts labels-key-name-64, labels-value-64). */
export const maxQualifiedNamePartLength = maxLabelLength;

/**
 * Length as Go's len() counts it: UTF-8 bytes (a lone surrogate counts as the 3 bytes of U+FFFD,
 * as when a request's JSON reaches Go). Counted, not encoded: encoding made a buffer per call, 300
 * ns against 12, and every label and annotation of every write is measured.
 */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Kubernetes' IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63
 * characters. The problems in Kubernetes' order; empty when valid. An empty name gets both "must be
 * non-empty" and the pattern message (transcript labels-empty-key).
 */
export function qualifiedNameProblems(value: string): string[] {
  const parts = value.split("/");
  if (parts.length > 2) {
    return [`a qualified name ${QUALIFIED_NAME_MISMATCH} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const problems: string[] = [];
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === "") problems.push("prefix part must be non-empty");
    else problems.push(...validateName("subdomain", prefix).map((problem) => `prefix part ${problem}`));
  }
  if (name === "") problems.push("name part must be non-empty");
  else if (byteLength(name) > maxQualifiedNamePartLength) problems.push(`name part ${maxLengthError(maxQualifiedNamePartLength)}`);
  if (!QUALIFIED_NAME_REGEX.test(name)) problems.push(`name part ${QUALIFIED_NAME_MISMATCH}`);
  return problems;
}

/** Kubernetes' IsValidLabelValue: empty, or at most 63 characters of the qualified-name alphabet. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > maxQualifiedNamePartLength) problems.push(maxLengthError(maxQualifiedNamePartLength));
  if (!LABEL_VALUE_REGEX.test(value)) problems.push(LABEL_VALUE_MISMATCH);
  return problems;
}
