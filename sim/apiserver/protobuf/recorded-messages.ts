/**
 * The message tables, as recorded from the kube-apiserver 1.26.4 binary by
 * conformance/record/record-protobuf-messages.ts into messages-data/ (README there): the
 * descriptors of its generated.proto files give names, numbers, types and pointers; its struct
 * tags give omitempty and inline. Read once, on the first Protobuf request or schema use.
 */
import { readFileSync } from "node:fs";
import { f, isFieldFlag, type FieldDef, type FieldFlag, type PackageDef } from "./field-model.ts";

/** A kind with a Protobuf form: the message of `kind` in `apiVersion` (kubernetes dialect names). */
export interface RecordedKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** The key of its message in the tables. */
  readonly message: string;
}

interface RecordedData {
  readonly kinds: readonly RecordedKind[];
  readonly packages: ReadonlyArray<{ readonly protoPackage: string; readonly messages: Readonly<Record<string, ReadonlyArray<readonly [string, number, string, ...string[]]>>> }>;
}

export const RECORDED_MESSAGES_FILE = new URL("./messages-data/kube-apiserver-1.26-messages.json", import.meta.url);

let data: RecordedData | undefined;

function recorded(): RecordedData {
  data ??= JSON.parse(readFileSync(RECORDED_MESSAGES_FILE, "utf8")) as RecordedData;
  return data;
}

/** Every recorded package with its message tables. */
export function recordedPackages(): PackageDef[] {
  return recorded().packages.map(({ protoPackage, messages }) => ({
    protoPackage,
    messages: Object.fromEntries(
      Object.entries(messages).map(([name, fields]): [string, FieldDef[]] => [name, fields.map(([fieldName, id, type, ...flags]) => f(fieldName, id, type, ...flags.map(checkedFlag)))]),
    ),
  }));
}

function checkedFlag(flag: string): FieldFlag {
  if (!isFieldFlag(flag)) throw new Error(`${RECORDED_MESSAGES_FILE.pathname}: unknown field flag ${flag}`);
  return flag;
}

/** Every recorded kind. */
export function recordedKinds(): readonly RecordedKind[] {
  return recorded().kinds;
}
