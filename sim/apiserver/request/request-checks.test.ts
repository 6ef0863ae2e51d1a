/**
 * Checks on requests (write options, PUT names, patch numbers, query parameters) that `fuzz
 * --target http` found missing by sending the same requests to the embedded server and to
 * kube-apiserver 1.26.4; the expected answers are the real server's (recorded 2026-11-25 from a
 * fast-expiry control plane).
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";
const MERGE = { "content-type": "application/merge-patch+json" };
const STRATEGIC = { "content-type": "application/strategic-merge-patch+json" };
const JSON_PATCH = { "content-type": "application/json-patch+json" };

async function withConfigMap() {
  const server = testServer();
  expect((await server.call("POST", CM, { metadata: { name: "t" }, data: { k: "v" } })).status).toBe(201);
  const stored = async () => (await server.call("GET", `${CM}/t`)).json;
  return { ...server, before: await stored(), stored };
}

describe("fieldManager", () => {
  it("is at most 128 bytes, on creates, updates and patches (422 of the options kind)", async () => {
    const { call, before, stored } = await withConfigMap();
    const long = "x".repeat(129);
    const create = await call("POST", `${CM}?fieldManager=${long}`, { metadata: { name: "fm" } });
    expect([create.status, create.json.message]).toEqual([422, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes']);
    expect(create.json.details).toEqual({ group: "meta.k8s.io", kind: "CreateOptions", causes: [{ reason: "FieldValueTooLong", message: "Too long: must have at most 128 bytes", field: "fieldManager" }] });
    expect((await call("PATCH", `${CM}/t?fieldManager=${long}`, "{}", MERGE)).json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
    expect((await call("PUT", `${CM}/t?fieldManager=${long}`, { metadata: { name: "t" }, data: { k: "w" } })).json.message).toMatch(/^UpdateOptions\.meta\.k8s\.io "" is invalid: fieldManager: Too long/);
    expect((await call("PUT", `${CM}/t?fieldManager=${"x".repeat(128)}`, { metadata: { name: "t" }, data: { k: "v" } })).status).toBe(200);
    expect((await call("DELETE", `${CM}/nope?fieldManager=${long}`)).status).toBe(404);
    expect((await call("GET", `${CM}/fm`)).status).toBe(404);
    expect((await stored()).data).toEqual(before.data);
  });

  it("has printable characters only, each other one named with its byte position", async () => {
    const { call } = await withConfigMap();
    const tab = await call("POST", `${CM}?fieldManager=a%09b`, { metadata: { name: "fm" } });
    expect([tab.status, tab.json.message]).toEqual([422, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)']);
    const both = await call("POST", `${CM}?fieldManager=a%09b&dryRun=Bogus`, { metadata: { name: "fm" } });
    expect(both.json.message).toBe('CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1), dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"]');
    expect((await call("POST", `${CM}?fieldManager=`, { metadata: { name: "empty" } })).status).toBe(201);
    expect((await call("POST", `${CM}?fieldManager=%C3%A9t%C3%A9`, { metadata: { name: "accented" } })).status).toBe(201);
  });
});

describe("a PUT body without a name", () => {
  it("is 400, whatever else it holds, and changes nothing", async () => {
    const { call, before, stored } = await withConfigMap();
    for (const metadata of [{}, { name: "" }, { generateName: "x", uid: "0b3c1a9e-0000-4000-8000-000000000000" }]) {
      const answer = await call("PUT", `${CM}/t`, { metadata, data: { k: "w" } });
      expect([answer.status, answer.json.message]).toEqual([400, "the name of the object (t based on URL) was undeterminable: name must be provided"]);
    }
    expect(await stored()).toEqual(before);
  });
});

describe("a patch holding a number past float64", () => {
  it("is 400 for every patch type, with Go's decode message, and changes nothing", async () => {
    const { call, before, stored } = await withConfigMap();
    const cases: Array<[string, Record<string, string>, string]> = [
      ['{"extra":1e400}', MERGE, "error decoding patch: json: cannot unmarshal number 1e400 into Go value of type float64"],
      ['{"data":{"k":1e400}}', MERGE, "error decoding patch: json: cannot unmarshal number 1e400 into Go value of type float64"],
      ['{"extra":1e400}', STRATEGIC, "json: cannot unmarshal number 1e400 into Go value of type float64"],
      ['[{"op":"add","path":"/extra","value":-1e400}]', JSON_PATCH, "error decoding patch: json: cannot unmarshal number -1e400 into Go struct field jsonPatchOp.value of type float64"],
    ];
    for (const [body, headers, message] of cases) {
      const answer = await call("PATCH", `${CM}/t`, body, headers);
      expect([answer.status, answer.json.message], body).toEqual([400, message]);
    }
    expect(await stored()).toEqual(before);
  });
});

describe("query parameters read as kube-apiserver 1.26.4 converts them (found by comparing with `fuzz --target http`)", () => {
  it("parse limit with strconv.ParseInt: empty, fractional and spaced values are 400", async () => {
    const { call } = testServer();
    for (const [query, message] of [
      ["limit", 'strconv.ParseInt: parsing "": invalid syntax'],
      ["limit=abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ["limit=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      ["limit=%201", 'strconv.ParseInt: parsing " 1": invalid syntax'],
      ["limit=9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ]) {
      expect((await call("GET", `${CM}?${query}`)).json, query).toMatchObject({ code: 400, reason: "BadRequest", message });
    }
    expect((await call("GET", `${CM}?limit=-1`)).status).toBe(200);
  });

  it("take any watch value but 0 and false as true", async () => {
    const { server } = testServer();
    for (const value of ["yes", "x", "", "f"]) {
      const answer = await server.handle(new Request(`http://test.local${CM}?watch=${value}`));
      expect([value, answer.status, answer.headers.get("content-type")]).toEqual([value, 200, "application/json"]);
      await answer.body?.cancel();
    }
    for (const value of ["0", "False", "FALSE"]) expect(((await (await server.handle(new Request(`http://test.local${CM}?watch=${value}`))).json()) as { kind: string }).kind).toBe("ConfigMapList");
  });

  it("refuse export on a get, not on a list", async () => {
    const { call } = await withConfigMap();
    for (const query of ["export", "export=x", "export=true"]) {
      expect((await call("GET", `${CM}/t?${query}`)).json, query).toMatchObject({ code: 400, message: "the export parameter, deprecated since v1.14, is no longer supported" });
    }
    for (const query of ["export=false", "export=0"]) expect((await call("GET", `${CM}/t?${query}`)).status, query).toBe(200);
    expect((await call("GET", `${CM}?export`)).status).toBe(200);
  });
});

describe("write options and metadata kube-apiserver 1.26.4 refuses (found by comparing with `fuzz --target http`)", () => {
  it("fieldValidation other than Strict, Warn, Ignore or empty: 422 of the options kind", async () => {
    const { call, before, stored } = await withConfigMap();
    const create = await call("POST", `${CM}?fieldValidation=strict`, { metadata: { name: "fv" } });
    expect([create.status, create.json.message]).toEqual([422, 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"']);
    expect((await call("PATCH", `${CM}/t?fieldValidation=bogus`, "{}", MERGE)).json.message).toMatch(/^PatchOptions\.meta\.k8s\.io "" is invalid: fieldValidation: Unsupported value: "bogus"/);
    expect((await call("POST", `${CM}?fieldValidation=`, { metadata: { name: "fv" } })).status).toBe(201);
    expect((await stored()).data).toEqual(before.data);
  });

  it("force on a patch that is not an apply patch, whatever its value: 422 Forbidden", async () => {
    const { call, before, stored } = await withConfigMap();
    for (const value of ["true", "false", ""]) {
      const answer = await call("PATCH", `${CM}/t?force=${value}`, '{"data":{"k":"w"}}', MERGE);
      expect([answer.status, answer.json.message, answer.json.details.causes], value).toEqual([
        422,
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
        [{ reason: "FieldValueForbidden", message: "Forbidden: may not be specified for non-apply patch", field: "force" }],
      ]);
    }
    expect(await stored()).toEqual(before);
    expect((await call("POST", `${CM}?force=true`, { metadata: { name: "forced" } })).status).toBe(201);
  });

  it("a patch changing metadata.uid: 422 field is immutable, named once, caused twice", async () => {
    const { call, before, stored } = await withConfigMap();
    const answer = await call("PATCH", `${CM}/t`, '{"metadata":{"uid":"0b3c1a9e-0000-4000-8000-000000000000"}}', MERGE);
    const cause = { reason: "FieldValueInvalid", message: 'Invalid value: "0b3c1a9e-0000-4000-8000-000000000000": field is immutable', field: "metadata.uid" };
    expect([answer.status, answer.json.message, answer.json.details.causes]).toEqual([422, `ConfigMap "t" is invalid: metadata.uid: ${cause.message}`, [cause, cause]]);
    expect(await stored()).toEqual(before);
  });

  it("generateName, owner references and a negative generation are validated on create", async () => {
    const { call } = testServer();
    const long = await call("POST", CM, { metadata: { generateName: "x".repeat(300) } });
    expect([long.status, long.json.details.causes[0].field, long.json.details.causes[0].message]).toEqual([422, "metadata.generateName", `Invalid value: "${"x".repeat(300)}": must be no more than 253 characters`]);
    const owner = await call("POST", CM, { metadata: { name: "ow", ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "x", uid: "" }] } });
    expect([owner.status, owner.json.message]).toEqual([422, 'ConfigMap "ow" is invalid: metadata.ownerReferences.uid: Invalid value: "": uid must not be empty']);
    const generation = await call("POST", CM, { metadata: { name: "g", generation: -5 } });
    expect([generation.status, generation.json.message]).toEqual([422, 'ConfigMap "g" is invalid: metadata.generation: Invalid value: -5: must be greater than or equal to 0']);
    expect((await call("GET", CM)).json.items).toEqual([]);
  });

  it("an empty kind is the endpoint's, and a DELETE body of null is empty options", async () => {
    const { call } = testServer();
    expect((await call("POST", CM, { kind: "", apiVersion: "v1", metadata: { name: "k" } })).status).toBe(201);
    expect((await call("DELETE", `${CM}/k`, "null", { "content-type": "application/json" })).status).toBe(200);
    expect((await call("GET", `${CM}/k`)).status).toBe(404);
  });
});

describe("more answers kube-apiserver 1.26.4 gives (recorded 2026-11-25; found by comparing with `fuzz --target http`)", () => {
  it("an apiVersion other than the endpoint's is 400 from the decoder", async () => {
    const { call } = testServer();
    expect((await call("POST", CM, { apiVersion: "v2", kind: "ConfigMap", metadata: { name: "a" } })).json.message).toBe(
      'ConfigMap in version "v2" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "v2" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    );
    expect((await call("POST", "/api/v1/namespaces/default/secrets", { apiVersion: "apps/v1", kind: "Secret", metadata: { name: "a" } })).json.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: no kind "Secret" is registered for version "apps/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    );
    expect((await call("POST", CM, '{"apiVersion":"nonsense/v1/x","kind":"ConfigMap","metadata":{"name":"a"}}', { "content-type": "application/json" })).json.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion string: nonsense/v1/x ({"apiVersion":"nonsense/v1/x", ...)',
    );
    expect((await call("GET", CM)).json.items).toEqual([]);
  });

  it("a DELETE's query: resourceVersion and uid are preconditions, gracePeriodSeconds parses strictly, an empty propagationPolicy is refused", async () => {
    const { call, before, stored } = await withConfigMap();
    const stale = await call("DELETE", `${CM}/t?resourceVersion=1`);
    expect([stale.status, stale.json.message]).toEqual([409, `Operation cannot be fulfilled on ConfigMap "t": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${before.metadata.resourceVersion}). The object might have been modified`]);
    expect((await call("DELETE", `${CM}/t?uid=x`)).json.message).toBe(`Operation cannot be fulfilled on ConfigMap "t": the UID in the precondition (x) does not match the UID in record (${before.metadata.uid}). The object might have been deleted and then recreated`);
    expect((await call("DELETE", `${CM}/t?gracePeriodSeconds=`)).json).toMatchObject({ code: 400, message: 'strconv.ParseInt: parsing "": invalid syntax' });
    expect((await call("DELETE", `${CM}/t?gracePeriodSeconds=-9223372036854775809`)).json.message).toBe('strconv.ParseInt: parsing "-9223372036854775809": value out of range');
    expect((await call("DELETE", `${CM}/t?propagationPolicy=`)).json.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    expect((await call("DELETE", `${CM}?resourceVersion=1`)).status).toBe(409);
    expect(await stored()).toEqual(before);
    expect((await call("DELETE", `${CM}/t?resourceVersion=${before.metadata.resourceVersion}`)).status).toBe(200);
  });

  it("a Lease takes no unconditional update, and a Secret's type does not change", async () => {
    const { call } = testServer();
    const leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    const lease = (await call("POST", leases, { metadata: { name: "l" }, spec: { holderIdentity: "a" } })).json;
    const unconditional = await call("PUT", `${leases}/l`, { metadata: { name: "l" }, spec: { holderIdentity: "b" } });
    expect([unconditional.status, unconditional.json.message, unconditional.json.details.kind]).toEqual([422, 'leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update', "leases"]);
    expect((await call("PUT", `${leases}/l`, { metadata: { name: "l", resourceVersion: lease.metadata.resourceVersion }, spec: { holderIdentity: "b" } })).status).toBe(200);
    const secrets = "/api/v1/namespaces/default/secrets";
    await call("POST", secrets, { metadata: { name: "s" }, type: "Opaque" });
    const changed = await call("PUT", `${secrets}/s`, { metadata: { name: "s" }, type: "Other" });
    expect([changed.status, changed.json.message]).toEqual([422, 'Secret "s" is invalid: type: Invalid value: "Other": field is immutable']);
    expect((await call("PUT", `${secrets}/s`, { metadata: { name: "s" } })).status).toBe(200);
  });

  it("the body's media type is checked before the options: 415, not 422", async () => {
    const { call } = testServer();
    expect((await call("POST", `${CM}?dryRun=all`, '{"metadata":{"name":"a"}}', { "content-type": "application" })).status).toBe(415);
  });
});
