/**
 * Records the Protobuf message tables of every kind the embedded server serves, from the
 * kube-apiserver binary itself (go-binary-protobuf.ts reads its descriptors and struct tags), into
 * sim/apiserver/protobuf/messages-data/ (README there), which protobuf/schema.ts builds from.
 *
 *   npx tsx conformance/record/record-protobuf-messages.ts --kube-assets DIR [--out FILE]
 *
 * DIR holds the unpacked kube-apiserver (as for record-openapi.ts). The kinds are those
 * record-openapi.ts lists as served (every resource type, its List, its subresources' kinds) plus
 * meta/v1 Status and DeleteOptions and the virtual types' kinds; the tables hold those messages
 * and every message they refer to. Per field, the facts field-model.ts describes:
 *
 * - name (the json tag's, where it differs from the descriptor's), number, type and repeated from
 *   the descriptor; a repeated `<Field>Entry` nested message is a map;
 * - `ptr`: the Go field is a pointer, which is gogoproto's `nullable` left at its default (true);
 * - `keep`: the Go json tag has no `omitempty`, from the struct tags. Where structs disagree for one
 *   `number name` (a `name = 1` with omitempty in one struct and without in another), the field's
 *   OpenAPI schema decides: kube-openapi marks the fields without `+optional` required, and
 *   Kubernetes' API conventions pair `+optional` with `omitempty`;
 * - `inline`: a json tag `,inline` (a Go embedded struct);
 * - `emptyArray`: the `items` of a `...List` kind, which Go servers always send as a list.
 *
 * Message keys are the short name where it is unique among the recorded messages, otherwise the
 * package's last two labels and the name (`discovery.v1.EndpointPort`); the messages convert.ts
 * encodes by hand (Time, MicroTime, IntOrString, Quantity, FieldsV1, RawExtension, ExtraValue)
 * keep their short names.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { readGoBinaryProtobuf, type DescriptorField, type DescriptorFile, type JsonTag } from "./go-binary-protobuf.ts";
import { servedKinds } from "./record-openapi.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const MESSAGES_FILE = join(REPO, "sim/apiserver/protobuf/messages-data/kube-apiserver-1.26-messages.json");
const OPENAPI_FILE = join(REPO, "sim/apiserver/discovery/openapi-data/kube-apiserver-1.26.json.gz");

const META = "k8s.io.apimachinery.pkg.apis.meta.v1";
/** The messages convert.ts gives a JSON form of their own, by fully qualified name. */
const SPECIAL: Readonly<Record<string, string>> = {
  [`${META}.Time`]: "Time",
  [`${META}.MicroTime`]: "MicroTime",
  [`${META}.FieldsV1`]: "FieldsV1",
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "IntOrString",
  "k8s.io.apimachinery.pkg.api.resource.Quantity": "Quantity",
  "k8s.io.apimachinery.pkg.runtime.RawExtension": "RawExtension",
  // Go's `type ExtraValue []string` in both groups: one message on the wire, kept once.
  "k8s.io.api.authorization.v1.ExtraValue": "ExtraValue",
  "k8s.io.api.authentication.v1.ExtraValue": "ExtraValue",
};
/** Messages the envelope and watch frames use, whatever kinds are served. */
const ENVELOPE_MESSAGES = ["k8s.io.apimachinery.pkg.runtime.Unknown", `${META}.WatchEvent`];
/** Kinds that are not resource types: in every group/version (transcripts), as kube-apiserver registers them. */
const META_KINDS = [
  { apiVersion: "v1", kind: "Status" },
  { apiVersion: "v1", kind: "DeleteOptions" },
  { apiVersion: "meta.k8s.io/v1", kind: "Status" },
  { apiVersion: "meta.k8s.io/v1", kind: "DeleteOptions" },
];

const SCALARS: Readonly<Record<number, string>> = { 3: "int64", 5: "int32", 8: "bool", 9: "string", 12: "bytes" };
const TYPE_MESSAGE = 11;
const LABEL_REPEATED = 3;

/** A recorded kind and the key of its message. */
export interface RecordedKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly message: string;
}

/** A field as field-model.ts's `f(...)` takes it: name, number, type, flags. */
export type RecordedField = readonly [name: string, id: number, type: string, ...flags: string[]];

export interface RecordedPackage {
  readonly protoPackage: string;
  readonly messages: Readonly<Record<string, readonly RecordedField[]>>;
}

export interface RecordedMessages {
  readonly source: { readonly gitVersion: string; readonly recorded: string; readonly recorder: string };
  readonly kinds: readonly RecordedKind[];
  readonly packages: readonly RecordedPackage[];
}

type Schema = { properties?: Record<string, unknown>; required?: string[] };

/** The proto message a kind's Go type generates, e.g. `apps/v1 StatefulSet` → `k8s.io.api.apps.v1.StatefulSet`. */
function kindMessage(group: string, version: string, kind: string, descriptors: ReadonlyMap<string, DescriptorFile>): string | undefined {
  const label = group === "" ? "core" : group.split(".")[0]!;
  const protoPackage = group === "meta.k8s.io" ? META : `k8s.io.api.${label}.${version}`;
  const fullName = `${protoPackage}.${kind}`;
  return descriptors.get(protoPackage)?.messages.has(fullName) ? fullName : undefined;
}

function packageOf(fullName: string): string {
  return fullName.slice(0, fullName.lastIndexOf("."));
}

function messageFields(fullName: string, descriptors: ReadonlyMap<string, DescriptorFile>): readonly DescriptorField[] {
  // Nested messages (map entries) live in their outer message's package.
  for (const [protoPackage, file] of descriptors) {
    if (fullName.startsWith(`${protoPackage}.`)) {
      const fields = file.messages.get(fullName);
      if (fields !== undefined) return fields;
    }
  }
  throw new Error(`no descriptor of message ${fullName}`);
}

/** The map entry a repeated field refers to (`.pkg.ConfigMap.DataEntry`), or undefined. */
function mapEntry(owner: string, field: DescriptorField): string | undefined {
  if (field.label !== LABEL_REPEATED || field.type !== TYPE_MESSAGE || field.typeName === undefined) return undefined;
  const target = field.typeName.slice(1);
  return target.startsWith(`${owner}.`) && target.endsWith("Entry") ? target : undefined;
}

/** Every message reachable from `roots`, following field types (through map entries' values). */
function reachable(roots: readonly string[], descriptors: ReadonlyMap<string, DescriptorFile>): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    if (SPECIAL[name] !== undefined) continue;
    for (const field of messageFields(name, descriptors)) {
      if (field.type !== TYPE_MESSAGE) continue;
      const entry = mapEntry(name, field);
      const target = entry === undefined ? field.typeName!.slice(1) : messageFields(entry, descriptors).find((f) => f.number === 2)?.typeName?.slice(1);
      if (target !== undefined) pending.push(target);
    }
  }
  return [...seen].sort();
}

function keys(messages: readonly string[]): Map<string, string> {
  const shortCount = new Map<string, number>();
  for (const name of messages) {
    if (SPECIAL[name] !== undefined) continue;
    const short = name.slice(name.lastIndexOf(".") + 1);
    shortCount.set(short, (shortCount.get(short) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const name of messages) {
    const short = name.slice(name.lastIndexOf(".") + 1);
    const qualified = name.split(".").slice(-3).join(".");
    out.set(name, SPECIAL[name] ?? (shortCount.get(short) === 1 ? short : qualified));
  }
  return out;
}

/** The OpenAPI schema of a message (`k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`). */
function schemaOf(fullName: string, schemas: Readonly<Record<string, Schema>>): Schema | undefined {
  return schemas[`io.k8s.${fullName.slice("k8s.io.".length)}`];
}

interface FieldContext {
  readonly owner: string;
  /** The schema holding the owner's JSON fields (its own, or that of the message inlining it). */
  readonly schema: Schema | undefined;
  readonly jsonTags: ReadonlyMap<string, readonly JsonTag[]>;
  readonly typeKey: (fullName: string) => string;
  readonly descriptors: ReadonlyMap<string, DescriptorFile>;
}

function tagsOf(field: DescriptorField, jsonTags: ReadonlyMap<string, readonly JsonTag[]>): readonly JsonTag[] {
  return jsonTags.get(`${field.number} ${field.name}`) ?? [];
}

function recordedField(field: DescriptorField, context: FieldContext): RecordedField {
  const flags: string[] = [];
  const entry = mapEntry(context.owner, field);
  let type: string;
  if (entry !== undefined) {
    const value = messageFields(entry, context.descriptors).find((f) => f.number === 2)!;
    type = value.type === TYPE_MESSAGE ? context.typeKey(value.typeName!.slice(1)) : scalar(value, context.owner);
    flags.push("map");
  } else {
    type = field.type === TYPE_MESSAGE ? context.typeKey(field.typeName!.slice(1)) : scalar(field, context.owner);
    if (field.label === LABEL_REPEATED) flags.push("rep");
    else if (!field.notNullable) flags.push("ptr");
  }
  // convert.ts writes the JSON of these messages itself: only their wire shape is used.
  if (SPECIAL[context.owner] !== undefined) return [field.name, field.number, type, ...flags.filter((flag) => flag !== "ptr")];
  if (isInline(field, context)) return [field.name, field.number, type, ...flags.filter((flag) => flag !== "ptr"), "inline"];
  const name = jsonName(field, context);
  const tags = tagsOf(field, context.jsonTags).filter((tag) => tag.name === name);
  // omitempty changes nothing for a non-pointer struct: encoding/json always writes it.
  const valueStruct = field.type === TYPE_MESSAGE && flags.length === 0;
  if (!valueStruct && keepsZero(name, tags, context.schema)) flags.push("keep");
  if (name === "items" && context.owner.endsWith("List") && field.label === LABEL_REPEATED) {
    if (!flags.includes("keep")) flags.push("keep");
    flags.push("emptyArray");
  }
  return [name, field.number, type, ...flags];
}

/**
 * The field's JSON name, which the tables use as its name (on the wire only numbers count): the
 * json tag's where it differs from the Protobuf name (IngressClassParametersReference's
 * `aPIGroup` is `apiGroup` in JSON), else the Protobuf name.
 */
function jsonName(field: DescriptorField, context: FieldContext): string {
  const names = new Set(tagsOf(field, context.jsonTags).filter((tag) => !tag.inline).map((tag) => tag.name));
  if (names.size === 0 || names.has(field.name)) return field.name;
  if (names.size === 1) return [...names][0]!;
  throw new Error(`${context.owner}.${field.name}: json tags disagree on its name (${[...names].join(", ")})`);
}

/**
 * A Go embedded struct (`json:",inline"`): said by its tag, or, where the tag names no field
 * (`protobuf:"bytes,1,req"` on EphemeralContainer's EphemeralContainerCommon), by the owner's
 * schema having the struct's fields but not the field itself.
 */
function isInline(field: DescriptorField, context: FieldContext): boolean {
  if (field.type !== TYPE_MESSAGE || field.label === LABEL_REPEATED) return false;
  if (tagsOf(field, context.jsonTags).some((tag) => tag.inline)) return true;
  const properties = context.schema?.properties;
  return properties !== undefined && !(field.name in properties) && SPECIAL[field.typeName!.slice(1)] === undefined;
}

function scalar(field: DescriptorField, owner: string): string {
  const type = SCALARS[field.type];
  if (type === undefined) throw new Error(`${owner}.${field.name}: Protobuf type ${field.type} is not one the codecs know`);
  return type;
}

/** Whether the json tag lacks omitempty: the tags when they agree, the schema's `required` when not. */
function keepsZero(name: string, tags: readonly JsonTag[], schema: Schema | undefined): boolean {
  const omitempty = new Set(tags.map((tag) => tag.omitempty));
  if (omitempty.size === 1) return !omitempty.has(true);
  return schema?.required?.includes(name) ?? false;
}

/** The tables of the kinds' messages, `envelope`'s and everything they refer to, in packages. */
export function deriveMessages(
  kinds: ReadonlyArray<{ apiVersion: string; group: string; version: string; kind: string }>,
  descriptors: ReadonlyMap<string, DescriptorFile>,
  jsonTags: ReadonlyMap<string, readonly JsonTag[]>,
  schemas: Readonly<Record<string, Schema>>,
  envelope: readonly string[] = ENVELOPE_MESSAGES,
): { kinds: RecordedKind[]; packages: RecordedPackage[]; missing: string[] } {
  const kindMessages: Array<{ apiVersion: string; kind: string; fullName: string }> = [];
  const missing: string[] = [];
  for (const kind of kinds) {
    const fullName = kindMessage(kind.group, kind.version, kind.kind, descriptors);
    if (fullName === undefined) missing.push(`${kind.apiVersion} ${kind.kind}`);
    else kindMessages.push({ apiVersion: kind.apiVersion, kind: kind.kind, fullName });
  }
  const messages = reachable([...envelope, ...kindMessages.map((entry) => entry.fullName)], descriptors);
  const keyOf = keys(messages);
  const typeKey = (fullName: string): string => {
    const key = keyOf.get(fullName);
    if (key === undefined) throw new Error(`message ${fullName} is referred to but not recorded`);
    return key;
  };
  // An embedded struct's fields are JSON fields of the message that inlines it: its schema decides for them.
  const inlinedBy = new Map<string, string>();
  for (const owner of messages) {
    if (SPECIAL[owner] !== undefined) continue;
    const context: FieldContext = { owner, schema: schemaOf(owner, schemas), jsonTags, typeKey, descriptors };
    for (const field of messageFields(owner, descriptors)) {
      if (isInline(field, context)) inlinedBy.set(field.typeName!.slice(1), owner);
    }
  }
  const byPackage = new Map<string, Record<string, RecordedField[]>>();
  for (const owner of messages) {
    const key = keyOf.get(owner)!;
    const protoPackage = packageOf(owner);
    const table = byPackage.get(protoPackage) ?? {};
    byPackage.set(protoPackage, table);
    if (isDefinedElsewhere(key, owner, byPackage)) continue;
    const schema = schemaOf(owner, schemas) ?? schemaOf(inlinedBy.get(owner) ?? "", schemas);
    const context: FieldContext = { owner, schema, jsonTags, typeKey, descriptors };
    table[key] = messageFields(owner, descriptors).map((field) => recordedField(field, context));
  }
  const packages = [...byPackage]
    .filter(([, table]) => Object.keys(table).length > 0)
    .map(([protoPackage, table]) => ({ protoPackage, messages: table }));
  return { kinds: kindMessages.map(({ apiVersion, kind, fullName }) => ({ apiVersion, kind, message: keyOf.get(fullName)! })), packages, missing };
}

/** ExtraValue is recorded in two packages under one key: the second is the same message, left out. */
function isDefinedElsewhere(key: string, owner: string, byPackage: ReadonlyMap<string, Record<string, RecordedField[]>>): boolean {
  for (const [protoPackage, table] of byPackage) {
    if (protoPackage !== packageOf(owner) && table[key] !== undefined) return true;
  }
  return false;
}

/** Every kind with a Protobuf form on the embedded server (kubernetes dialect). */
export function protobufKindsToRecord(): Array<{ apiVersion: string; group: string; version: string; kind: string }> {
  const out = META_KINDS.map(({ apiVersion, kind }) => ({ apiVersion, group: apiVersion === "v1" ? "meta.k8s.io" : apiVersion.split("/")[0]!, version: "v1", kind }));
  for (const { kinds } of servedKinds()) {
    for (const { group, version, kind } of kinds) {
      const apiVersion = group === "" ? version : `${group}/${version}`;
      if (!out.some((entry) => entry.apiVersion === apiVersion && entry.kind === kind)) out.push({ apiVersion, group, version, kind });
    }
  }
  return out;
}

function parseArgs(argv: readonly string[]): { assets: string; out: string } {
  let assets = process.env[ASSETS_ENVIRONMENT_VARIABLE];
  let out = MESSAGES_FILE;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--kube-assets") assets = argv[++i];
    else if (argv[i] === "--out") out = resolve(argv[++i] ?? "");
    else throw new Error(`unknown argument ${argv[i]}; usage: record-protobuf-messages.ts --kube-assets DIR [--out FILE]`);
  }
  if (assets === undefined) throw new Error(`--kube-assets DIR (or ${ASSETS_ENVIRONMENT_VARIABLE}) is required`);
  return { assets, out };
}

/** `v1.26.4` from `kube-apiserver --version` ("Kubernetes v1.26.4"). */
function binaryVersion(path: string): string {
  return execFileSync(path, ["--version"], { encoding: "utf8" }).trim().split(" ").at(-1) ?? "unknown";
}

/** What recording from the binaries in `assets` gives now (the data file's content). */
export function recordMessages(assets: string): { data: RecordedMessages; missing: string[]; descriptorCount: number } {
  const { descriptors, jsonTags } = readGoBinaryProtobuf(join(assets, "kube-apiserver"));
  const schemas = (JSON.parse(gunzipSync(readFileSync(OPENAPI_FILE)).toString("utf8")) as { v3: { schemas: Record<string, Schema> } }).v3.schemas;
  const derived = deriveMessages(protobufKindsToRecord(), descriptors, jsonTags, schemas);
  const data: RecordedMessages = {
    source: { gitVersion: binaryVersion(join(assets, "kube-apiserver")), recorded: new Date().toISOString().slice(0, 10), recorder: "conformance/record/record-protobuf-messages.ts" },
    kinds: derived.kinds,
    packages: derived.packages,
  };
  return { data, missing: derived.missing, descriptorCount: descriptors.size };
}

function main(): void {
  const { assets, out } = parseArgs(process.argv.slice(2));
  const { data, missing, descriptorCount } = recordMessages(assets);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(data)}\n`);
  const count = data.packages.reduce((sum, pkg) => sum + Object.keys(pkg.messages).length, 0);
  console.log(`recorded ${data.kinds.length} kinds, ${count} messages in ${data.packages.length} packages from ${descriptorCount} descriptors to ${out}`);
  for (const kind of missing) console.log(`no message for ${kind} (served without a Protobuf form)`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
