import { describe, expect, it } from "vitest";
import { BODY_LIMIT, lineResponse } from "./transcript-line.ts";

describe("lineResponse", () => {
  it("keeps only the reference's four headers, in its order", () => {
    const headers = new Headers({ "set-cookie": "a=b", "transfer-encoding": "chunked", "content-type": "application/json", date: "today", "audit-id": "x" });
    expect(lineResponse(200, headers, new TextEncoder().encode("{}")).headers).toEqual({ "content-type": "application/json", "transfer-encoding": "chunked" });
  });

  it("keeps text as text, cut at 24,000 characters", () => {
    const long = "é".repeat(BODY_LIMIT + 10);
    const body = lineResponse(200, new Headers({ "content-type": "text/plain" }), new TextEncoder().encode(long)).body;
    expect(body).toEqual({ text: "é".repeat(BODY_LIMIT) });
  });

  it("gives protobuf and bytes that are not UTF-8 in base64", () => {
    const utf8Looking = new TextEncoder().encode("k8s\u0000ok");
    expect(lineResponse(200, new Headers({ "content-type": "application/vnd.kubernetes.protobuf" }), utf8Looking).body).toEqual({
      base64: Buffer.from(utf8Looking).toString("base64"),
    });
    const invalid = new Uint8Array([0xff, 0xfe, 0x41]);
    expect(lineResponse(200, new Headers({ "content-type": "application/json" }), invalid).body).toEqual({ base64: "//5B" });
  });
});
