/** Complete responses on a loopback socket: one write with a Content-Length, the same bytes in-process. */
import { describe, expect, it } from "vitest";
import { completeBody, completeResponse } from "./complete-body.ts";
import { serveHttp } from "./http-server.ts";

const PARTS = [Buffer.from('{"items":['), Buffer.from('{"a":"é"}'), Buffer.from(","), Buffer.from('{"b":2}'), Buffer.from("]}\n")];
const WHOLE = Buffer.concat(PARTS).toString("utf8");

describe("a response whose whole body is known", () => {
  it("goes out with a Content-Length and its parts in order", async () => {
    const server = await serveHttp(async () => completeResponse(PARTS, { status: 201, headers: { "content-type": "application/json" } }), {
      host: "127.0.0.1",
      port: 0,
      maxBodyBytes: 1024,
      tooLarge: () => new Response(null, { status: 413 }),
    });
    try {
      const response = await fetch(`${server.url}/x`, { signal: AbortSignal.timeout(3_000) });
      expect(response.status).toBe(201);
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(WHOLE)));
      expect(response.headers.get("transfer-encoding")).toBeNull();
      expect(await response.text()).toBe(WHOLE);
    } finally {
      await server.close();
    }
  });

  it("reads in-process as the same bytes, once read no longer offers its parts", async () => {
    const response = completeResponse(PARTS, { status: 200 });
    expect(completeBody(response)).toEqual(PARTS);
    expect(await response.text()).toBe(WHOLE);
    expect(completeBody(response)).toBeUndefined();
    expect(await completeResponse("text é", { status: 200 }).text()).toBe("text é");
  });

  it("is unknown for any other response", () => {
    expect(completeBody(new Response("x"))).toBeUndefined();
  });
});
