/**
 * ObjectMeta validation of writes, as kube-apiserver 1.26 does it: label keys and values,
 * annotation keys and their total size, finalizer names. Doc 1 leaves these open (gap
 * doc1/2.2/other-fields), so both dialects follow Kubernetes. Every message, field and the number
 * and order of causes below were recorded from a kube-apiserver 1.26.4
 * (spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl).
 *
 * Kubernetes validates metadata in several passes, and on an update each pass reports the same
 * problem again: the Status of a bad label on a ConfigMap update lists the label's cause four
 * times (its message, an error aggregate, names it once). The passes are imitated here so that
 * `details.causes` match a real server's, not only the message.
 */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { maxAnnotationsTotalBytes } from "../../../spec/doc1/limits.ts";
import { invalidValueMessage } from "./object-names.ts";
import { byteLength, labelValueProblems, qualifiedNameProblems } from "./label-syntax.ts";
import { goQuote } from "../responses/go-text.ts";

type Metadata = Readonly<Record<string, unknown>>;

/**
 * How a kind's validation treats metadata (recorded per kind, transcripts *-create-foo-finalizer,
 * *-patch-bad-label, *-status-patch-bad-label):
 * - `kubeFinalizers`: core validation (pkg/apis/core/validation.ValidateObjectMeta) adds "name is
 *   neither a standard finalizer name nor is it fully qualified" for a finalizer without '/'; the
 *   generic validation of Leases, Events and custom resources does not (a Lease with finalizer
 *   "foo" is created).
 * - `updatePasses`: which passes run on an update. Every kind has the common passes (whole
 *   metadata, then labels and annotations again); most kinds' own update validation checks labels
 *   and annotations once more (`metaUpdate`), and some then validate the whole new object again
 *   (`full`).
 */
interface KindMetadataRules {
  readonly kubeFinalizers: boolean;
  readonly metaUpdate: boolean;
  readonly full: boolean;
}

const CORE_FULL: KindMetadataRules = { kubeFinalizers: true, metaUpdate: true, full: true };

const KIND_RULES: Readonly<Record<string, KindMetadataRules>> = {
  ConfigMap: CORE_FULL,
  Secret: CORE_FULL,
  Namespace: CORE_FULL,
  Pod: CORE_FULL,
  Service: CORE_FULL,
  Node: CORE_FULL,
  Deployment: { kubeFinalizers: true, metaUpdate: true, full: false },
  Lease: { kubeFinalizers: false, metaUpdate: true, full: false },
  Event: { kubeFinalizers: false, metaUpdate: false, full: false },
};

// Not recorded: custom resources. Their strategy validates with the generic ObjectMeta rules and
// checks the metadata update, as a Lease's does.
const GENERIC_RULES: KindMetadataRules = { kubeFinalizers: false, metaUpdate: true, full: false };

function rulesFor(kind: string): KindMetadataRules {
  return KIND_RULES[kind] ?? GENERIC_RULES;
}

// Kubernetes' standard finalizers (helper.IsStandardFinalizerName): these need no domain prefix.
const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

function invalidCause(field: string, value: string, problem: string): StatusCause {
  return { reason: "FieldValueInvalid", message: invalidValueMessage(value, problem), field };
}

function stringMap(value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string");
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** ValidateLabels: per label, the key's problems, then the value's; all on field `metadata.labels`. */
export function labelCauses(metadata: Metadata): StatusCause[] {
  return stringMap(metadata["labels"]).flatMap(([key, value]) => [
    ...qualifiedNameProblems(key).map((problem) => invalidCause("metadata.labels", key, problem)),
    ...labelValueProblems(value).map((problem) => invalidCause("metadata.labels", value, problem)),
  ]);
}

/**
 * ValidateAnnotations: keys are qualified names once lowercased ("Example.COM/Foo" is accepted,
 * transcript annotations-upper-prefix), values are free; keys and values together may hold at
 * most 256 KiB (one FieldValueTooLong, transcripts annotations-1mib, annotations-total-over).
 */
export function annotationCauses(metadata: Metadata): StatusCause[] {
  const annotations = stringMap(metadata["annotations"]);
  const causes = annotations.flatMap(([key]) =>
    qualifiedNameProblems(key.toLowerCase()).map((problem) => invalidCause("metadata.annotations", key, problem)),
  );
  const total = annotations.reduce((sum, [key, value]) => sum + byteLength(key) + byteLength(value), 0);
  if (total > maxAnnotationsTotalBytes) {
    causes.push({ reason: "FieldValueTooLong", message: `Too long: must have at most ${maxAnnotationsTotalBytes} bytes`, field: "metadata.annotations" });
  }
  return causes;
}

/**
 * ValidateFinalizers: every finalizer a qualified name (field `metadata.finalizers`, unindexed),
 * and not both `orphan` and `foregroundDeletion` (transcript finalizers-orphan-foreground, the
 * list printed as Go's %#v). Duplicates are allowed (transcript finalizers-duplicate).
 */
export function finalizerCauses(metadata: Metadata): StatusCause[] {
  const finalizers = stringList(metadata["finalizers"]);
  const causes = finalizers.flatMap((finalizer) =>
    qualifiedNameProblems(finalizer).map((problem) => invalidCause("metadata.finalizers", finalizer, problem)),
  );
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion")) {
    causes.push({
      reason: "FieldValueInvalid",
      message: `Invalid value: []string{${finalizers.map(goQuote).join(", ")}}: finalizer orphan and foregroundDeletion cannot be both set`,
      field: "metadata.finalizers",
    });
  }
  return causes;
}

/** Core validation's extra finalizer rule, indexed (`metadata.finalizers[1]`, transcript finalizers-second-bad). */
export function kubeFinalizerCauses(metadata: Metadata): StatusCause[] {
  return stringList(metadata["finalizers"]).flatMap((finalizer, index) =>
    !finalizer.includes("/") && !STANDARD_FINALIZERS.has(finalizer)
      ? [invalidCause(`metadata.finalizers[${index}]`, finalizer, "name is neither a standard finalizer name nor is it fully qualified")]
      : [],
  );
}

/**
 * ValidateOwnerReferences, per reference: a version, a kind, a name and a uid (field
 * `metadata.ownerReferences.<field>`, unindexed). Recorded from kube-apiserver 1.26.4 on
 * 2026-11-25; found by comparing with `fuzz --target http` (an owner reference without a uid was
 * stored). Its check that one reference at most is the controller quotes Go pointers, and is left out.
 */
export function ownerReferenceCauses(metadata: Metadata): StatusCause[] {
  const references = Array.isArray(metadata["ownerReferences"]) ? (metadata["ownerReferences"] as unknown[]) : [];
  return references.flatMap((reference) => {
    const fields = (reference ?? {}) as Record<string, unknown>;
    const text = (field: string) => (typeof fields[field] === "string" ? (fields[field] as string) : "");
    const apiVersion = text("apiVersion");
    const version = apiVersion.includes("/") ? apiVersion.slice(apiVersion.indexOf("/") + 1) : apiVersion;
    const field = (name: string) => `metadata.ownerReferences.${name}`;
    return [
      ...(version === "" ? [invalidCause(field("apiVersion"), apiVersion, "version must not be empty")] : []),
      ...(text("kind") === "" ? [invalidCause(field("kind"), text("kind"), "kind must not be empty")] : []),
      ...(text("name") === "" ? [invalidCause(field("name"), text("name"), "name must not be empty")] : []),
      ...(text("uid") === "" ? [invalidCause(field("uid"), text("uid"), "uid must not be empty")] : []),
    ];
  });
}

/**
 * ValidateNonnegativeField on metadata.generation, for a create only: on an update the server keeps
 * the stored generation, so the body's is never validated (kube-apiserver 1.26.4, recorded
 * 2026-11-25; found by comparing with `fuzz --target http`). Kinds that count generations set it
 * to 1 on a create before validation.
 */
function generationCauses(kind: string, metadata: Metadata): StatusCause[] {
  const generation = metadata["generation"];
  if (typeof generation !== "number" || generation >= 0 || GENERATION_COUNTED.has(kind)) return [];
  return [{ reason: "FieldValueInvalid", message: `Invalid value: ${generation}: must be greater than or equal to 0`, field: "metadata.generation" }];
}

// Kinds whose create sets metadata.generation (their spec changes are counted).
const GENERATION_COUNTED = new Set(["Deployment"]);

/** The whole-metadata pass: owner references, labels, annotations, finalizers, then core's finalizer rule where the kind has it. */
function fullPass(rules: KindMetadataRules, metadata: Metadata): StatusCause[] {
  return [...ownerReferenceCauses(metadata), ...labelCauses(metadata), ...annotationCauses(metadata), ...finalizerCauses(metadata), ...(rules.kubeFinalizers ? kubeFinalizerCauses(metadata) : [])];
}

/** The metadata-update pass: labels and annotations (and core's finalizer rule). */
function updatePass(rules: KindMetadataRules, metadata: Metadata, kubeFinalizers: boolean): StatusCause[] {
  return [...labelCauses(metadata), ...annotationCauses(metadata), ...(kubeFinalizers && rules.kubeFinalizers ? kubeFinalizerCauses(metadata) : [])];
}

/** The causes a create of `kind` gets for `metadata` (one pass; transcript configmap-many-problems). */
export function createMetadataCauses(kind: string, metadata: Metadata): StatusCause[] {
  return [...generationCauses(kind, metadata), ...fullPass(rulesFor(kind), metadata)];
}

/**
 * The causes an update of `kind` gets for the new `metadata` (transcripts update-many-problems,
 * lease-patch-bad-label, event-patch-bad-label): the common passes, then the kind's own. A write
 * of the status subresource runs only the common passes and the metadata-update pass
 * (transcripts *-status-patch-bad-label).
 */
export function updateMetadataCauses(kind: string, metadata: Metadata, subresource: "status" | undefined): StatusCause[] {
  const rules = rulesFor(kind);
  const causes = [...fullPass({ ...rules, kubeFinalizers: false }, metadata), ...updatePass(rules, metadata, false)];
  if (subresource === "status" || rules.metaUpdate) causes.push(...updatePass(rules, metadata, true));
  if (subresource === undefined && rules.full) causes.push(...fullPass(rules, metadata));
  return causes;
}
