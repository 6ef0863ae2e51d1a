/** Complete responses on a loopback socket: one write with a Content-Length, the same bytes in-process. */
import { get, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { completeBody, completeResponse } from "./complete-body.ts";
import { serveHttp, type HttpServerHandle } from "./http-server.ts";

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

  // 8 MiB in 4,000 parts: sent in slices, each after the socket took the last (writeComplete).
  const LARGE = Array.from({ length: 4_000 }, (_, index) => Buffer.from(`${String(index).padStart(6, "0")}${"x".repeat(2_091)}`));

  async function serveLarge(run: (server: HttpServerHandle) => Promise<void>): Promise<void> {
    const server = await serveHttp(async () => completeResponse(LARGE, { status: 200 }), { host: "127.0.0.1", port: 0, maxBodyBytes: 1024, tooLarge: () => new Response(null, { status: 413 }) });
    try {
      await run(server);
    } finally {
      await server.close();
    }
  }

  const open = (url: string) => new Promise<IncomingMessage>((resolve, reject) => get(url, resolve).on("error", reject));

  it("sends a large body whole to a reader that keeps pausing, in order", async () => {
    await serveLarge(async (server) => {
      const response = await open(`${server.url}/large`);
      const chunks: Buffer[] = [];
      // Pausing fills the socket, so the server has to wait for it to drain, slice after slice.
      for await (const chunk of response) {
        chunks.push(chunk as Buffer);
        if (chunks.length % 50 === 0) {
          response.pause();
          await new Promise((resume) => setTimeout(resume, 5));
          response.resume();
        }
      }
      const body = Buffer.concat(chunks);
      expect(Number(response.headers["content-length"])).toBe(body.length);
      expect(body.equals(Buffer.concat(LARGE))).toBe(true);
    });
  });

  it("stops sending a large body to a client that went away, and serves the next one", async () => {
    await serveLarge(async (server) => {
      const response = await open(`${server.url}/large`);
      response.destroy();
      await expect.poll(() => server.requestsInFlight, { timeout: 3_000 }).toBe(0);
      const next = await fetch(`${server.url}/large`, { signal: AbortSignal.timeout(3_000) });
      expect((await next.arrayBuffer()).byteLength).toBe(Buffer.concat(LARGE).length);
    });
  });

  it("reads in-process as the same bytes, once read no longer offers its parts", async () => {
    const response = completeResponse(PARTS, { status: 200 });
    expect(completeBody(response)).toEqual(PARTS);
    expect(await response.text()).toBe(WHOLE);
    expect(completeBody(response)).toBeUndefined();
    expect(await completeResponse("text é", { status: 200 }).text()).toBe("text é");
  });

  it("is a Response in every way an in-process reader uses, its body stream made when first asked for", async () => {
    const response = completeResponse(PARTS, { status: 201, headers: { "content-type": "application/json" } });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get("content-type"), response.bodyUsed]).toEqual([201, true, "application/json", false]);
    expect(await response.clone().json()).toEqual(JSON.parse(WHOLE));
    expect(response.bodyUsed).toBe(false);
    expect(new TextDecoder().decode(await (response as Response & { bytes(): Promise<Uint8Array> }).bytes())).toBe(WHOLE);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    // Read through its stream, as watch readers and planted defects do.
    const streamed = completeResponse(PARTS, { status: 200 });
    expect(await new Response(streamed.body, streamed).text()).toBe(WHOLE);
    expect(streamed.bodyUsed).toBe(true);
    expect(completeBody(streamed)).toBeUndefined();
    expect(await (await completeResponse("b", { status: 200 }).blob()).text()).toBe("b");
    expect(new Uint8Array(await completeResponse("ab", { status: 200 }).arrayBuffer())).toEqual(new Uint8Array([97, 98]));
  });

  it("is unknown for any other response", () => {
    expect(completeBody(new Response("x"))).toBeUndefined();
  });
});
