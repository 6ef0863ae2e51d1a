/**
 * The Protobuf schema, built in code with protobufjs' reflection API from the message tables
 * recorded from kube-apiserver (recorded-messages.ts): one protobufjs Type per Kubernetes message, in its Kubernetes package
 * (`k8s.io.api.core.v1.ConfigMap`, …), proto2 rules (repeated scalars unpacked, as Go writes them).
 * Map fields are declared as repeated `<Field>Entry {1: key, 2: value}` messages, which is how
 * proto maps are on the wire; that lets the encoder write entries in Go's sorted key order.
 */
import protobuf from "protobufjs";
import { SCALAR_TYPES, type FieldDef, type MessageDef, type PackageDef } from "./field-model.ts";
import { recordedPackages } from "./recorded-messages.ts";

/** Every package of the schema. */
export const PACKAGES: readonly PackageDef[] = recordedPackages();

/** One message of the schema: its table and its protobufjs Type. */
export interface MessageInfo {
  /** Short name where unique across packages (`ObjectMeta`), else qualified (`discovery.v1.EndpointPort`). */
  readonly name: string;
  /** Fully qualified Protobuf name (`k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta`). */
  readonly fullName: string;
  readonly fields: MessageDef;
  readonly type: protobuf.Type;
}

/** The entry message name of a map field (`labels` → `LabelsEntry`), nested in its message. */
export function mapEntryName(field: FieldDef): string {
  return `${field.name.charAt(0).toUpperCase()}${field.name.slice(1)}Entry`;
}

/** The message's own name: the last part of a qualified key (`discovery.v1.EndpointPort` → `EndpointPort`). */
function protoName(key: string): string {
  return key.slice(key.lastIndexOf(".") + 1);
}

function build(): { root: protobuf.Root; messages: Map<string, MessageInfo> } {
  const fullNames = new Map<string, string>();
  for (const pkg of PACKAGES) {
    for (const name of Object.keys(pkg.messages)) {
      if (fullNames.has(name)) throw new Error(`protobuf schema: message ${name} is defined twice`);
      fullNames.set(name, `${pkg.protoPackage}.${protoName(name)}`);
    }
  }
  const typeRef = (type: string): string => {
    if (SCALAR_TYPES.has(type)) return type;
    const full = fullNames.get(type);
    if (full === undefined) throw new Error(`protobuf schema: unknown message type ${type}`);
    return `.${full}`;
  };

  const root = new protobuf.Root();
  const types = new Map<string, protobuf.Type>();
  for (const pkg of PACKAGES) {
    const namespace = root.define(pkg.protoPackage);
    for (const [name, fields] of Object.entries(pkg.messages)) {
      const type = new protobuf.Type(protoName(name));
      const ids = new Set<number>();
      for (const field of fields) {
        if (ids.has(field.id)) throw new Error(`protobuf schema: ${name} uses field number ${field.id} twice`);
        ids.add(field.id);
        if (field.rule === "map") {
          const entry = new protobuf.Type(mapEntryName(field));
          entry.add(new protobuf.Field("key", 1, "string"));
          entry.add(new protobuf.Field("value", 2, typeRef(field.type)));
          type.add(entry);
          type.add(new protobuf.Field(field.name, field.id, `.${fullNames.get(name)!}.${entry.name}`, "repeated"));
        } else {
          type.add(new protobuf.Field(field.name, field.id, typeRef(field.type), field.rule));
        }
      }
      namespace.add(type);
      types.set(name, type);
    }
  }
  root.resolveAll();

  const messages = new Map<string, MessageInfo>();
  for (const pkg of PACKAGES) {
    for (const [name, fields] of Object.entries(pkg.messages)) {
      messages.set(name, { name, fullName: fullNames.get(name)!, fields, type: types.get(name)! });
    }
  }
  return { root, messages };
}

const built = build();

/** The protobufjs root holding every message of the schema. */
export const protoRoot: protobuf.Root = built.root;

/** The message named `name` (short name); throws for a name the schema lacks. */
export function messageInfo(name: string): MessageInfo {
  const info = built.messages.get(name);
  if (info === undefined) throw new Error(`protobuf schema: no message ${name}`);
  return info;
}

/** Every message of the schema, by short name. */
export function allMessages(): ReadonlyMap<string, MessageInfo> {
  return built.messages;
}
