/**
 * `/openapi/v2` in Protobuf: the Swagger 2.0 document as gnostic's `openapi.v2.Document` message
 * (github.com/google/gnostic, OpenAPIv2.proto), the form kube-apiserver answers
 * `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf` with and kubectl (client-go's
 * discovery client) asks for first. Only the parts a Kubernetes document uses are written: the
 * document's swagger, info, paths, definitions, security and security definitions; path items,
 * operations, query/path/body parameters, responses and schemas. Each message's fields go out in
 * field-number order and zero values are left out, as Go's proto.Marshal writes them, and
 * extension values (`x-...`, `default`, `enum`, `example`) are YAML text in an `Any`, as
 * kube-openapi writes them. openapi-v2-protobuf.test.ts compares the bytes with kube-apiserver's.
 */
import { stringify as yamlText } from "yaml";

type Json = unknown;
type JsonObject = { readonly [key: string]: Json };

/** The Protobuf form of a Swagger 2.0 document. */
export function openApiV2Protobuf(document: JsonObject): Uint8Array {
  const out = new ProtoWriter();
  writeDocument(out, document);
  return out.finish();
}

/** The Protobuf form of one schema (a `Schema` message), for tests. */
export function openApiV2SchemaProtobuf(schema: JsonObject): Uint8Array {
  const out = new ProtoWriter();
  writeSchema(out, schema);
  return out.finish();
}

/** The Protobuf form of one path item (a `PathItem` message), for tests. */
export function openApiV2PathItemProtobuf(item: JsonObject): Uint8Array {
  const out = new ProtoWriter();
  writePathItem(out, item);
  return out.finish();
}

// Field numbers of openapi.v2 (gnostic's OpenAPIv2.proto), for the messages written here.
const DOCUMENT = { swagger: 1, info: 2, host: 3, basePath: 4, schemes: 5, consumes: 6, produces: 7, paths: 8, definitions: 9, security: 12, securityDefinitions: 13, vendorExtension: 16 };
const INFO = { title: 1, version: 2, description: 3, vendorExtension: 7 };
const PATH_ITEM = { ref: 1, get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8, parameters: 9, vendorExtension: 10 };
const OPERATION = { tags: 1, summary: 2, description: 3, operationId: 5, produces: 6, consumes: 7, parameters: 8, responses: 9, schemes: 10, deprecated: 11, vendorExtension: 13 };
const BODY_PARAMETER = { description: 1, name: 2, in: 3, required: 4, schema: 5, vendorExtension: 6 };
// Query parameters have allowEmptyValue at 5 and so every later field one further than path and header ones.
const QUERY_PARAMETER = { required: 1, in: 2, description: 3, name: 4, allowEmptyValue: 5, type: 6, format: 7, collectionFormat: 9, default: 10, uniqueItems: 20, enum: 21, vendorExtension: 23 };
const PATH_PARAMETER = { required: 1, in: 2, description: 3, name: 4, type: 5, format: 6, collectionFormat: 8, default: 9, uniqueItems: 19, enum: 20, vendorExtension: 22 };
type ParameterFields = typeof PATH_PARAMETER & { readonly allowEmptyValue?: number };
const NON_BODY = { header: 1, formData: 2, query: 3, path: 4 } as const;
const RESPONSE = { description: 1, schema: 2, vendorExtension: 5 };
const SCHEMA = {
  ref: 1,
  format: 2,
  title: 3,
  description: 4,
  default: 5,
  multipleOf: 6,
  maximum: 7,
  exclusiveMaximum: 8,
  minimum: 9,
  exclusiveMinimum: 10,
  maxLength: 11,
  minLength: 12,
  pattern: 13,
  maxItems: 14,
  minItems: 15,
  uniqueItems: 16,
  maxProperties: 17,
  minProperties: 18,
  required: 19,
  enum: 20,
  additionalProperties: 21,
  type: 22,
  items: 23,
  allOf: 24,
  properties: 25,
  discriminator: 26,
  readOnly: 27,
  example: 30,
  vendorExtension: 31,
};
const API_KEY_SECURITY = { type: 1, name: 2, in: 3, description: 4, vendorExtension: 5 };

function writeDocument(out: ProtoWriter, document: JsonObject): void {
  out.string(DOCUMENT.swagger, document["swagger"]);
  if (isObject(document["info"])) out.message(DOCUMENT.info, (info) => writeInfo(info, document["info"] as JsonObject));
  out.string(DOCUMENT.host, document["host"]);
  out.string(DOCUMENT.basePath, document["basePath"]);
  out.strings(DOCUMENT.schemes, document["schemes"]);
  out.strings(DOCUMENT.consumes, document["consumes"]);
  out.strings(DOCUMENT.produces, document["produces"]);
  if (isObject(document["paths"])) {
    out.message(DOCUMENT.paths, (paths) => {
      const entries = Object.entries(document["paths"] as JsonObject);
      writeExtensions(paths, 1, document["paths"] as JsonObject);
      for (const [name, item] of entries) if (!name.startsWith("x-") && isObject(item)) paths.message(2, (named) => writeNamed(named, name, (value) => writePathItem(value, item)));
    });
  }
  if (isObject(document["definitions"])) {
    out.message(DOCUMENT.definitions, (definitions) => {
      for (const [name, schema] of Object.entries(document["definitions"] as JsonObject)) {
        if (isObject(schema)) definitions.message(1, (named) => writeNamed(named, name, (value) => writeSchema(value, schema)));
      }
    });
  }
  if (Array.isArray(document["security"])) {
    for (const requirement of document["security"]) {
      if (!isObject(requirement)) continue;
      out.message(DOCUMENT.security, (security) => {
        for (const [name, scopes] of Object.entries(requirement)) {
          security.message(1, (named) => writeNamed(named, name, (value) => value.strings(1, scopes)));
        }
      });
    }
  }
  if (isObject(document["securityDefinitions"])) {
    out.message(DOCUMENT.securityDefinitions, (definitions) => {
      for (const [name, scheme] of Object.entries(document["securityDefinitions"] as JsonObject)) {
        if (!isObject(scheme) || scheme["type"] !== "apiKey") continue;
        // SecurityDefinitionsItem: api_key_security = 2.
        definitions.message(1, (named) =>
          writeNamed(named, name, (item) =>
            item.message(2, (key) => {
              key.string(API_KEY_SECURITY.type, scheme["type"]);
              key.string(API_KEY_SECURITY.name, scheme["name"]);
              key.string(API_KEY_SECURITY.in, scheme["in"]);
              key.string(API_KEY_SECURITY.description, scheme["description"]);
              writeExtensions(key, API_KEY_SECURITY.vendorExtension, scheme);
            }),
          ),
        );
      }
    });
  }
  writeExtensions(out, DOCUMENT.vendorExtension, document);
}

function writeInfo(out: ProtoWriter, info: JsonObject): void {
  out.string(INFO.title, info["title"]);
  out.string(INFO.version, info["version"]);
  out.string(INFO.description, info["description"]);
  writeExtensions(out, INFO.vendorExtension, info);
}

function writePathItem(out: ProtoWriter, item: JsonObject): void {
  out.string(PATH_ITEM.ref, item["$ref"]);
  for (const method of ["get", "put", "post", "delete", "options", "head", "patch"] as const) {
    const operation = item[method];
    if (isObject(operation)) out.message(PATH_ITEM[method], (value) => writeOperation(value, operation));
  }
  writeParameters(out, PATH_ITEM.parameters, item["parameters"]);
  writeExtensions(out, PATH_ITEM.vendorExtension, item);
}

function writeOperation(out: ProtoWriter, operation: JsonObject): void {
  out.strings(OPERATION.tags, operation["tags"]);
  out.string(OPERATION.summary, operation["summary"]);
  out.string(OPERATION.description, operation["description"]);
  out.string(OPERATION.operationId, operation["operationId"]);
  out.strings(OPERATION.produces, operation["produces"]);
  out.strings(OPERATION.consumes, operation["consumes"]);
  writeParameters(out, OPERATION.parameters, operation["parameters"]);
  if (isObject(operation["responses"])) {
    const responses = operation["responses"] as JsonObject;
    out.message(OPERATION.responses, (value) => {
      for (const [code, response] of Object.entries(responses)) {
        if (code.startsWith("x-") || !isObject(response)) continue;
        // NamedResponseValue { name, ResponseValue { response = 1 } }
        value.message(1, (named) => writeNamed(named, code, (responseValue) => responseValue.message(1, (body) => writeResponse(body, response))));
      }
      writeExtensions(value, 2, responses);
    });
  }
  out.strings(OPERATION.schemes, operation["schemes"]);
  out.bool(OPERATION.deprecated, operation["deprecated"]);
  writeExtensions(out, OPERATION.vendorExtension, operation);
}

function writeResponse(out: ProtoWriter, response: JsonObject): void {
  out.string(RESPONSE.description, response["description"]);
  const schema = response["schema"];
  // SchemaItem { schema = 1 }
  if (isObject(schema)) out.message(RESPONSE.schema, (item) => item.message(1, (value) => writeSchema(value, schema)));
  writeExtensions(out, RESPONSE.vendorExtension, response);
}

// ParametersItem { Parameter parameter = 1 { body_parameter = 1 | non_body_parameter = 2 } | JsonReference json_reference = 2 }
function writeParameters(out: ProtoWriter, field: number, parameters: Json): void {
  if (!Array.isArray(parameters)) return;
  for (const parameter of parameters) {
    if (!isObject(parameter)) continue;
    out.message(field, (item) => {
      if (typeof parameter["$ref"] === "string") {
        item.message(2, (reference) => {
          reference.string(1, parameter["$ref"]);
          reference.string(2, parameter["description"]);
        });
        return;
      }
      item.message(1, (value) => {
        if (parameter["in"] === "body") {
          value.message(1, (body) => {
            body.string(BODY_PARAMETER.description, parameter["description"]);
            body.string(BODY_PARAMETER.name, parameter["name"]);
            body.string(BODY_PARAMETER.in, parameter["in"]);
            body.bool(BODY_PARAMETER.required, parameter["required"]);
            if (isObject(parameter["schema"])) body.message(BODY_PARAMETER.schema, (schema) => writeSchema(schema, parameter["schema"] as JsonObject));
            writeExtensions(body, BODY_PARAMETER.vendorExtension, parameter);
          });
          return;
        }
        const where = NON_BODY[parameter["in"] as keyof typeof NON_BODY];
        if (where === undefined) return;
        const fields: ParameterFields = where === NON_BODY.query || where === NON_BODY.formData ? QUERY_PARAMETER : PATH_PARAMETER;
        value.message(2, (nonBody) =>
          nonBody.message(where, (sub) => {
            sub.bool(fields.required, parameter["required"]);
            sub.string(fields.in, parameter["in"]);
            sub.string(fields.description, parameter["description"]);
            sub.string(fields.name, parameter["name"]);
            if (fields.allowEmptyValue !== undefined) sub.bool(fields.allowEmptyValue, parameter["allowEmptyValue"]);
            sub.string(fields.type, parameter["type"]);
            sub.string(fields.format, parameter["format"]);
            sub.string(fields.collectionFormat, parameter["collectionFormat"]);
            writeAny(sub, fields.default, parameter["default"]);
            sub.bool(fields.uniqueItems, parameter["uniqueItems"]);
            if (Array.isArray(parameter["enum"])) for (const value of parameter["enum"]) writeAny(sub, fields.enum, value);
            writeExtensions(sub, fields.vendorExtension, parameter);
          }),
        );
      });
    });
  }
}

function writeSchema(out: ProtoWriter, schema: JsonObject): void {
  out.string(SCHEMA.ref, schema["$ref"]);
  out.string(SCHEMA.format, schema["format"]);
  out.string(SCHEMA.title, schema["title"]);
  out.string(SCHEMA.description, schema["description"]);
  writeAny(out, SCHEMA.default, schema["default"]);
  out.double(SCHEMA.multipleOf, schema["multipleOf"]);
  out.double(SCHEMA.maximum, schema["maximum"]);
  out.bool(SCHEMA.exclusiveMaximum, schema["exclusiveMaximum"]);
  out.double(SCHEMA.minimum, schema["minimum"]);
  out.bool(SCHEMA.exclusiveMinimum, schema["exclusiveMinimum"]);
  out.int(SCHEMA.maxLength, schema["maxLength"]);
  out.int(SCHEMA.minLength, schema["minLength"]);
  out.string(SCHEMA.pattern, schema["pattern"]);
  out.int(SCHEMA.maxItems, schema["maxItems"]);
  out.int(SCHEMA.minItems, schema["minItems"]);
  out.bool(SCHEMA.uniqueItems, schema["uniqueItems"]);
  out.int(SCHEMA.maxProperties, schema["maxProperties"]);
  out.int(SCHEMA.minProperties, schema["minProperties"]);
  out.strings(SCHEMA.required, schema["required"]);
  if (Array.isArray(schema["enum"])) for (const value of schema["enum"]) writeAny(out, SCHEMA.enum, value);
  const additional = schema["additionalProperties"];
  // AdditionalPropertiesItem { schema = 1 | boolean = 2 }
  if (isObject(additional)) out.message(SCHEMA.additionalProperties, (item) => item.message(1, (value) => writeSchema(value, additional)));
  else if (typeof additional === "boolean") out.message(SCHEMA.additionalProperties, (item) => item.boolAlways(2, additional));
  // TypeItem { repeated string value = 1 }
  const type = schema["type"];
  if (typeof type === "string" || Array.isArray(type)) out.message(SCHEMA.type, (item) => item.strings(1, typeof type === "string" ? [type] : type));
  // ItemsItem { repeated Schema schema = 1 }
  const items = schema["items"];
  if (isObject(items) || Array.isArray(items)) {
    out.message(SCHEMA.items, (item) => {
      for (const member of Array.isArray(items) ? items : [items]) if (isObject(member)) item.message(1, (value) => writeSchema(value, member));
    });
  }
  if (Array.isArray(schema["allOf"])) for (const member of schema["allOf"]) if (isObject(member)) out.message(SCHEMA.allOf, (value) => writeSchema(value, member));
  const properties = schema["properties"];
  // Properties { repeated NamedSchema additional_properties = 1 }
  if (isObject(properties)) {
    out.message(SCHEMA.properties, (item) => {
      for (const [name, member] of Object.entries(properties)) if (isObject(member)) item.message(1, (named) => writeNamed(named, name, (value) => writeSchema(value, member)));
    });
  }
  out.string(SCHEMA.discriminator, schema["discriminator"]);
  out.bool(SCHEMA.readOnly, schema["readOnly"]);
  writeAny(out, SCHEMA.example, schema["example"]);
  writeExtensions(out, SCHEMA.vendorExtension, schema);
}

// NamedX { string name = 1; X value = 2 }
function writeNamed(out: ProtoWriter, name: string, value: (out: ProtoWriter) => void): void {
  out.string(1, name);
  out.message(2, value);
}

// repeated NamedAny: every `x-` member, in the object's order.
function writeExtensions(out: ProtoWriter, field: number, object: JsonObject): void {
  for (const [name, value] of Object.entries(object)) {
    if (name.startsWith("x-")) out.message(field, (named) => writeNamed(named, name, (any) => any.string(2, anyYaml(value))));
  }
}

// Any { string yaml = 2 }
function writeAny(out: ProtoWriter, field: number, value: Json): void {
  if (value === undefined) return;
  out.message(field, (any) => any.string(2, anyYaml(value)));
}

// A value as Go's yaml.Marshal writes it in kube-openapi's Any: block style, strings quoted only when they must be.
function anyYaml(value: Json): string {
  return yamlText(value, { lineWidth: 0, defaultStringType: "PLAIN", defaultKeyType: "PLAIN", indentSeq: false });
}

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A Protobuf writer: fields appended as they come; a message's length is known once it is written. */
class ProtoWriter {
  private buffer = new Uint8Array(64);
  private used = 0;

  string(field: number, value: Json): void {
    if (typeof value !== "string" || value === "") return;
    this.lengthDelimited(field, encoder.encode(value));
  }

  strings(field: number, values: Json): void {
    if (!Array.isArray(values)) return;
    // Repeated strings keep empty ones.
    for (const value of values) if (typeof value === "string") this.lengthDelimited(field, encoder.encode(value));
  }

  bool(field: number, value: Json): void {
    if (value === true) this.boolAlways(field, true);
  }

  /** A bool inside a oneof: written even when false. */
  boolAlways(field: number, value: boolean): void {
    this.tag(field, 0);
    this.varint(value ? 1 : 0);
  }

  int(field: number, value: Json): void {
    if (typeof value !== "number" || value === 0 || !Number.isInteger(value) || value < 0) return;
    this.tag(field, 0);
    this.varint(value);
  }

  double(field: number, value: Json): void {
    if (typeof value !== "number" || value === 0) return;
    this.tag(field, 1);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.append(bytes);
  }

  message(field: number, write: (out: ProtoWriter) => void): void {
    const inner = new ProtoWriter();
    write(inner);
    this.lengthDelimited(field, inner.finish());
  }

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.used);
  }

  private lengthDelimited(field: number, bytes: Uint8Array): void {
    this.tag(field, 2);
    this.varint(bytes.byteLength);
    this.append(bytes);
  }

  private tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  private varint(value: number): void {
    this.reserve(10);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.used++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.used++] = rest;
  }

  private append(bytes: Uint8Array): void {
    this.reserve(bytes.byteLength);
    this.buffer.set(bytes, this.used);
    this.used += bytes.byteLength;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.byteLength) return;
    let size = this.buffer.byteLength * 2;
    while (size < this.used + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.used));
    this.buffer = grown;
  }
}

const encoder = new TextEncoder();
