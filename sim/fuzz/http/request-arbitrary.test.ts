/**
 * What the HTTP fuzzer may send (issue #14: objects only in the fuzzer's namespace, anything else
 * only read): checked over thousands of generated requests, because one unsafe request against a
 * real cluster is one too many.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { LANE_LABEL, laneNames } from "./fuzz-kinds.ts";
import { describeRequest, isWriteMethod, LANE_COUNT, PLACEHOLDERS, type FuzzRequest } from "./fuzz-request.ts";
import { mediaTypes } from "./media-types.ts";
import { laneRequestArbitrary } from "./request-arbitrary.ts";

const kubernetes = dialectByName("kubernetes");
const requests: FuzzRequest[] = Array.from({ length: LANE_COUNT }, (_, lane) => fc.sample(laneRequestArbitrary({ dialect: kubernetes }, lane), { seed: 99 + lane, numRuns: 600 })).flat();
const writes = requests.filter((request) => isWriteMethod(request.method));

// The path as a server splits it: decoded, empty segments dropped.
const segmentsOf = (path: string) => decodeURIComponent(path.replace(/%(?![0-9a-f]{2})/gi, "%25")).split("/").filter((segment) => segment !== "");

describe("generated requests", () => {
  it("cover reads, every write method, odd methods, lies about Content-Length and every patch type", () => {
    const methods = new Set(requests.map((request) => request.method));
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "get", "FOO"]) expect(methods, method).toContain(method);
    expect(requests.some((request) => request.lengthLie === "long")).toBe(true);
    const contentTypes = new Set(requests.flatMap((request) => request.headers.filter(([name]) => name === "Content-Type").map(([, value]) => value)));
    for (const type of ["application/merge-patch+json", "application/json-patch+json", "application/strategic-merge-patch+json", kubernetes.protobufMediaType]) expect(contentTypes).toContain(type);
    expect(mediaTypes(kubernetes).length).toBeGreaterThanOrEqual(100);
  });

  it("aim every write at the fuzzer's namespace and its own lane's objects", () => {
    for (const request of writes) {
      const what = describeRequest(request);
      expect(request.write, what).toBeDefined();
      const segments = segmentsOf(request.path);
      // Never a dot segment: a URL parser resolves `x/..` to the collection and `configmaps/..` to the namespace.
      expect(segments.some((segment) => segment === "." || segment === ".." || /^(%2e){1,2}$/i.test(segment)), what).toBe(false);
      const namespaceAt = segments.indexOf("namespaces");
      expect(segments[namespaceAt + 1], what).toBe(PLACEHOLDERS.namespace);
      // A name there is the lane's, or a mangled path's tail added to a collection ("extra",
      // "status", "x"): names no lane creates (creates name lane objects, and a POST to a name is 405).
      const name = segments[namespaceAt + 3];
      if (name !== undefined) expect([...laneNames(request.lane), "extra", "status", "x"], what).toContain(name);
      if (request.write?.name !== undefined) expect(laneNames(request.lane), what).toContain(request.write.name);
    }
  });

  it("restrict every DELETE to the lane's label first, so a collection delete reaches only the lane", () => {
    for (const request of writes.filter((write) => write.method === "DELETE")) {
      expect(request.query.startsWith(`labelSelector=${encodeURIComponent(`${LANE_LABEL}=${request.lane}`)}`), describeRequest(request)).toBe(true);
    }
  });

  it("never name another lane's label or objects in a body", () => {
    for (const request of requests) {
      if (request.body === undefined || !("text" in request.body)) continue;
      for (let other = 0; other < LANE_COUNT; other++) {
        if (other === request.lane) continue;
        expect(request.body.text.includes(`"${LANE_LABEL}":"${other}"`), describeRequest(request)).toBe(false);
        expect(/"fz\d-/.test(request.body.text.replaceAll(`"fz${request.lane}-`, "")), describeRequest(request)).toBe(false);
      }
    }
  });

  it("print as one line naming lane, method, path and intent, with long bodies cut", () => {
    // fast-check prints a counterexample with fc.stringify, which uses the request's own description.
    const text = fc.stringify(requests.find((request) => request.body !== undefined && "text" in request.body && request.body.text.length > 1_000));
    expect(text).toMatch(/^lane \d \S+ \/\S*.* body ".*… \(\d+ chars\)/);
  });
});
