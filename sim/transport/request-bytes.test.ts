/** A request's body, carried beside it by the socket adapter or as its own stream. */
import { describe, expect, it } from "vitest";
import { peekRequestBytes, requestBytes, requestCarrying, withOtherHeaders } from "./request-bytes.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("request bytes", () => {
  it("reads the bytes a request carries, and the body stream of any other", async () => {
    const carried = requestCarrying("http://x/a", { method: "POST" }, new TextEncoder().encode('{"a":"é"}'));
    expect(carried.body).toBeNull();
    expect(text(await requestBytes(carried))).toBe('{"a":"é"}');
    expect(text(await requestBytes(new Request("http://x/a", { method: "POST", body: "plain" })))).toBe("plain");
    expect((await requestBytes(requestCarrying("http://x/a", { method: "GET" }, undefined))).byteLength).toBe(0);
  });

  it("peeks at a body without using it up, however it is carried", async () => {
    const streamed = new Request("http://x/a", { method: "POST", body: "seen" });
    expect(text(await peekRequestBytes(streamed))).toBe("seen");
    expect(streamed.bodyUsed).toBe(false);
    expect(text(await requestBytes(streamed))).toBe("seen");
    const carried = requestCarrying("http://x/a", { method: "POST" }, new TextEncoder().encode("kept"));
    expect(text(await peekRequestBytes(carried))).toBe("kept");
    expect(text(await requestBytes(carried))).toBe("kept");
    expect((await peekRequestBytes(new Request("http://x/a"))).byteLength).toBe(0);
  });

  it("keeps the body of a request given other headers, however it was carried", async () => {
    const headers = new Headers({ accept: "application/yaml" });
    const carried = withOtherHeaders(requestCarrying("http://x/a", { method: "PUT" }, new TextEncoder().encode("one")), headers);
    expect(carried.headers.get("accept")).toBe("application/yaml");
    expect(carried.method).toBe("PUT");
    expect(text(await requestBytes(carried))).toBe("one");
    expect(text(await requestBytes(withOtherHeaders(new Request("http://x/a", { method: "PUT", body: "two" }), headers)))).toBe("two");
  });
});
