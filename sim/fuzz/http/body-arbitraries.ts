/**
 * Object bodies for creates and updates (issue #14): valid objects with bad metadata, wrong JSON
 * types at any field (wrong-types.ts), wrong kind or apiVersion, malformed JSON, invalid UTF-8,
 * deep nesting (deep-bodies.ts and random depths around the embedded server's bound), huge
 * strings, bodies just over 3 MiB, YAML, and Protobuf: valid, damaged, and garbage with and
 * without the `k8s\0` magic prefix. Each comes with the Content-Type it is written in.
 */
import fc from "fast-check";
import { encodeObject } from "../../apiserver/protobuf/index.ts";
import { baselineObject, LANE_LABEL, type FuzzKind } from "./fuzz-kinds.ts";
import { PLACEHOLDERS, type FuzzBody } from "./fuzz-request.ts";
import { deepRequest, DEEP_SHAPES, jsonObjects } from "./deep-bodies.ts";
import { formatFieldPath, withRawNumbers, withValueAt, wrongValueArbitrary } from "./wrong-types.ts";

/** A body, the media type it is written in, and what it is, in words. */
export interface GeneratedBody {
  readonly body: FuzzBody;
  readonly writtenAs: string;
  readonly intent: string;
}

const THREE_MIB = 3 * 1024 * 1024;
const PROTOBUF_PREFIX = [0x6b, 0x38, 0x73, 0x00];

/** Changes to an object's metadata, valid and invalid, with what each does. */
function metadataChangeArbitrary(lane: number): fc.Arbitrary<[string, (metadata: Record<string, unknown>) => void]> {
  const label = fc.tuple(
    fc.constantFrom("a", "a/b", "example.com/a", "-a", "a-", "A_b.C", "x".repeat(64), "x".repeat(63), "a/", "/a", "a//b", "é", "", `${"x".repeat(254)}/a`),
    fc.constantFrom("v", "", "-v", "v-", "x".repeat(63), "x".repeat(64), "a b", "é", "v/w"),
  );
  return fc.oneof(
    label.map(([key, value]): [string, (m: Record<string, unknown>) => void] => [`label ${JSON.stringify(key.slice(0, 40))}=${JSON.stringify(value.slice(0, 40))}`, (m) => {
      m["labels"] = { ...(m["labels"] as object), [key]: value };
    }]),
    fc.tuple(fc.constantFrom("a", "a b", "", "example.com/a", "x".repeat(300)), fc.integer({ min: 0, max: 300_000 })).map(([key, size]): [string, (m: Record<string, unknown>) => void] => [`annotation ${JSON.stringify(key.slice(0, 20))} of ${size} bytes`, (m) => {
      m["annotations"] = { [key]: "v".repeat(size) };
    }]),
    fc.constantFrom("example.com/fz", "kubernetes", "bad finalizer", "a/b/c", "", "orphan", "x".repeat(400)).map((finalizer): [string, (m: Record<string, unknown>) => void] => [`finalizer ${JSON.stringify(finalizer.slice(0, 40))}`, (m) => {
      m["finalizers"] = [finalizer];
    }]),
    fc.constantFrom(`fz${lane}-`, `fz${lane}-UPPER-`, "", "x".repeat(300)).map((prefix): [string, (m: Record<string, unknown>) => void] => [`generateName ${JSON.stringify(prefix.slice(0, 20))} without a name`, (m) => {
      delete m["name"];
      m["generateName"] = prefix;
    }]),
    fc.constantFrom(`fz${lane}-UPPER`, `fz${lane}-a_b`, `fz${lane}-${"x".repeat(260)}`, `fz${lane}-a.`, `fz${lane}-..`, `fz${lane}-a/b`, `fz${lane}-%00`, "", `fz${lane}-é`).map((name): [string, (m: Record<string, unknown>) => void] => [`name ${JSON.stringify(name.slice(0, 30))}`, (m) => {
      m["name"] = name;
    }]),
    fc.constantFrom("default", "other", "", "$NS$", "UPPER").map((namespace): [string, (m: Record<string, unknown>) => void] => [`metadata.namespace ${JSON.stringify(namespace)}`, (m) => {
      m["namespace"] = namespace;
    }]),
    fc.constantFrom(PLACEHOLDERS.resourceVersion, "1", "0", "abc", "", "-1", PLACEHOLDERS.futureResourceVersion).map((version): [string, (m: Record<string, unknown>) => void] => [`resourceVersion ${JSON.stringify(version)}`, (m) => {
      m["resourceVersion"] = version;
    }]),
    fc.constantFrom(PLACEHOLDERS.uid, "0b3c1a9e-0000-4000-8000-000000000000", "not-a-uid", "").map((uid): [string, (m: Record<string, unknown>) => void] => [`uid ${JSON.stringify(uid)}`, (m) => {
      m["uid"] = uid;
    }]),
    fc.constantFrom<[string, unknown]>(
      ["deletionTimestamp", "2020-01-01T00:00:00Z"],
      ["creationTimestamp", "not a time"],
      ["creationTimestamp", "2020-01-01T00:00:00Z"],
      ["generation", -5],
      ["deletionGracePeriodSeconds", 30],
      ["selfLink", "/x"],
      ["ownerReferences", [{ apiVersion: "v1", kind: "ConfigMap", name: "x", uid: "" }]],
      ["ownerReferences", [{ apiVersion: "v1", kind: "ConfigMap", name: "x", uid: "0b3c1a9e-0000-4000-8000-000000000000", controller: true }, { apiVersion: "v1", kind: "Secret", name: "y", uid: "1b3c1a9e-0000-4000-8000-000000000000", controller: true }]],
      ["managedFields", [{ manager: "x", operation: "Bogus", fieldsType: "FieldsV2" }]],
      ["managedFields", []],
      ["labels", { [LANE_LABEL]: "99" }],
    ).map(([field, value]): [string, (m: Record<string, unknown>) => void] => [`metadata.${field} ${JSON.stringify(value).slice(0, 60)}`, (m) => {
      // The lane label is never taken from another lane: 99 belongs to no one.
      m[field] = value;
    }]),
  );
}

/** A valid object of the lane, its metadata changed 0–2 times. */
function objectArbitrary(kind: FuzzKind, lane: number, name: string): fc.Arbitrary<{ object: Record<string, unknown>; intent: string }> {
  return fc.array(metadataChangeArbitrary(lane), { maxLength: 2 }).map((changes) => {
    const object = baselineObject(kind, lane, name);
    const metadata = object["metadata"] as Record<string, unknown>;
    for (const [, change] of changes) change(metadata);
    return { object, intent: changes.length === 0 ? "valid object" : changes.map(([what]) => what).join(", ") };
  });
}

/** Whether the object encodes in Protobuf (its placeholders filled with values of the right shape). */
function encodable(kind: FuzzKind, object: Record<string, unknown>): boolean {
  try {
    const filled = JSON.parse(JSON.stringify(object).replaceAll(PLACEHOLDERS.uid, "00000000-0000-0000-0000-000000000000").replace(/\$[A-Z_]+\$/g, "1"));
    encodeObject(kind.apiVersion, kind.kind, filled, { unknownFields: "drop" });
    return true;
  } catch {
    return false;
  }
}

function json(object: unknown): FuzzBody {
  return { text: withRawNumbers(JSON.stringify(object)) };
}

/** YAML of a JSON object as flow YAML: JSON is YAML, written with a YAML head to be sure it reads as such. */
function yamlText(object: unknown): string {
  return `# fuzz\n${JSON.stringify(object)}\n`;
}

/** A body for a create or update of `kind` named `name` in `lane`. */
export function objectBodyArbitrary(kind: FuzzKind, lane: number, name: string, protobufType: string): fc.Arbitrary<GeneratedBody> {
  const object = objectArbitrary(kind, lane, name);
  const asJson = object.map(({ object: o, intent }): GeneratedBody => ({ body: json(o), writtenAs: "application/json", intent }));
  const asYaml = object.map(({ object: o, intent }): GeneratedBody => ({ body: { text: yamlText(o) }, writtenAs: "application/yaml", intent: `${intent}, as YAML` }));
  const asProtobuf = fc
    .tuple(object, fc.option(fc.oneof(fc.nat().map((flip) => ({ flip })), fc.nat().map((cutTo) => ({ cutTo })), fc.constant({ withoutPrefix: true as const })), { nil: undefined, freq: 2 }))
    .map(([{ object: o, intent }, damage]): GeneratedBody => {
      // Metadata a Go type cannot hold (a timestamp that is not one) has no Protobuf form: sent as JSON.
      if (!encodable(kind, o)) return { body: json(o), writtenAs: "application/json", intent: `${intent} (no Protobuf form: as JSON)` };
      return {
        body: { protobuf: { apiVersion: kind.apiVersion, kind: kind.kind, object: o, ...(damage !== undefined && { damage }) } },
        writtenAs: protobufType,
        intent: `${intent}, as Protobuf${damage === undefined ? "" : ` damaged ${JSON.stringify(damage)}`}`,
      };
    });
  const wrongType = fc.tuple(wrongValueArbitrary(kind.message), fc.boolean()).map(([wrong, yaml]): GeneratedBody => {
    const broken = withValueAt(baselineObject(kind, lane, name), wrong.path, wrong.value);
    const intent = `wrong type at ${formatFieldPath(wrong.path)} (a ${wrong.expected}): ${withRawNumbers(JSON.stringify(wrong.value))}`;
    return yaml ? { body: { text: yamlText(JSON.parse(withRawNumbers(JSON.stringify(broken)).replace(/1e400/g, "1"))) }, writtenAs: "application/yaml", intent: `${intent}, as YAML` } : { body: json(broken), writtenAs: "application/json", intent };
  });
  const wrongKind = fc
    .constantFrom<[string, string]>(["v1", "Secret"], ["v1", "configmap"], ["v2", kind.kind], ["apps/v1", kind.kind], ["", kind.kind], [kind.apiVersion, ""], ["v1", "Status"], ["nonsense/v1/x", kind.kind], [kind.apiVersion, "Unknown"])
    .map(([apiVersion, k]): GeneratedBody => ({ body: json({ ...baselineObject(kind, lane, name), apiVersion, kind: k }), writtenAs: "application/json", intent: `apiVersion ${JSON.stringify(apiVersion)}, kind ${JSON.stringify(k)}` }));
  const withoutTypeMeta = fc.constant<GeneratedBody>({ body: json({ metadata: { name, labels: { [LANE_LABEL]: String(lane) } }, ...kind.content() }), writtenAs: "application/json", intent: "no kind or apiVersion" });
  return fc.oneof(
    { weight: 6, arbitrary: asJson },
    { weight: 1, arbitrary: asYaml },
    { weight: 1, arbitrary: asProtobuf },
    { weight: 4, arbitrary: wrongType },
    { weight: 1, arbitrary: wrongKind },
    { weight: 1, arbitrary: withoutTypeMeta },
    { weight: 3, arbitrary: brokenBodyArbitrary(kind, lane, name, protobufType) },
  );
}

/** Bodies that are not a decodable object at all, or are too deep or too large. */
export function brokenBodyArbitrary(kind: FuzzKind, lane: number, name: string, protobufType: string): fc.Arbitrary<GeneratedBody> {
  const valid = JSON.stringify(baselineObject(kind, lane, name));
  const text = (body: string, intent: string, writtenAs = "application/json"): GeneratedBody => ({ body: { text: body }, writtenAs, intent });
  const bytes = (body: Uint8Array, intent: string, writtenAs = "application/json"): GeneratedBody => ({ body: { bytes: body }, writtenAs, intent });
  const head = `{"apiVersion":"${kind.apiVersion}","kind":"${kind.kind}","metadata":{"name":"${name}","labels":{"${LANE_LABEL}":"${lane}"}}`;
  return fc.oneof(
    fc.nat().map((cut) => text(valid.slice(0, cut % valid.length), "JSON cut short")),
    fc.tuple(fc.nat(), fc.constantFrom("}", "{", ",", '"', "]", "\\", "\u0000", "nul", "//x", "NaN", "'")).map(([at, junk]) => {
      const index = at % valid.length;
      return text(`${valid.slice(0, index)}${junk}${valid.slice(index)}`, `JSON with ${JSON.stringify(junk)} inserted`);
    }),
    fc.constantFrom("", " ", "null", "[]", "42", '"x"', "true", "{}", "{", "}", "[{}]", `${valid}${valid}`, `${valid} trailing`, `\uFEFF${valid}`, `{"a":1,"a":2}`, valid.replace("{", '{"metadata":{},')).map((body) => text(body, `body ${JSON.stringify(body.slice(0, 30))}`)),
    fc.tuple(fc.nat(), fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80])).map(([at, invalid]) => {
      // Inside a string value: the data value or the name.
      const encoded = new TextEncoder().encode(valid);
      const quotes = [...encoded.keys()].filter((index) => encoded[index] === 0x22);
      const index = quotes[at % quotes.length]! + 1;
      return bytes(new Uint8Array([...encoded.subarray(0, index), ...invalid, ...encoded.subarray(index)]), `invalid UTF-8 ${invalid.map((b) => b.toString(16)).join(" ")} in a string`);
    }),
    fc.integer({ min: 2, max: 700 }).map((depth) => text(`${head},"extra":${jsonObjects(depth)}}`, `unknown field nested ${depth} deep`)),
    fc.integer({ min: 2, max: 700 }).map((depth) => text(`${head},"data":{"k":${"[".repeat(depth)}${"]".repeat(depth)}}}`, `data value: ${depth} nested arrays`)),
    fc.constantFrom(...DEEP_SHAPES.filter((shape) => shape.includes("create"))).chain((shape) =>
      fc.constantFrom(1_000, 20_000).map((depth) => {
        const deep = deepRequest(shape, depth);
        return text(deep.body.replace(/deep-[a-z-]+-\d+/, name), `${shape} body depth ${depth}`, deep.contentType);
      }),
    ),
    fc.constantFrom(10_000, 1_000_000, THREE_MIB - 400).map((size) => text(`${head},"data":{"k":"${"x".repeat(size)}"}}`, `a data value of ${size} bytes`)),
    fc.integer({ min: 1, max: 64 }).map((over) => text(`${head},"data":{"k":"${"x".repeat(THREE_MIB + over - head.length - 15)}"}}`, `${over} bytes over 3 MiB`)),
    fc.uint8Array({ maxLength: 200 }).map((garbage) => bytes(new Uint8Array([...PROTOBUF_PREFIX, ...garbage]), "Protobuf garbage after the k8s\\0 prefix", protobufType)),
    fc.uint8Array({ maxLength: 200 }).map((garbage) => bytes(garbage, "Protobuf garbage without the prefix", protobufType)),
    fc.constantFrom(
      "a: [",
      "a: &a [*a]",
      "? [a, b]\n: c\n",
      "a: !!binary x\n",
      "--- \n...\n--- \n",
      "{a: 1, a: 2}",
      `apiVersion: v1\nkind: ${kind.kind}\nmetadata:\n  name: ${name}\n  labels: {${LANE_LABEL}: "${lane}"}\nextra: ${"[".repeat(600)}${"]".repeat(600)}\n`,
      "a: &a [x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e]\n",
      "\t- x",
    ).map((body) => text(body, `YAML ${JSON.stringify(body.slice(0, 30))}`, "application/yaml")),
  );
}
