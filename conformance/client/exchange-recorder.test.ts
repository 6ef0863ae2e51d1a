/**
 * What the transcript keeps of an exchange (issue #5, "Results and reports"): bodies cut to 4 KiB
 * of UTF-8 on a character boundary, the run's secrets replaced, Authorization never kept.
 */
import { describe, expect, it } from "vitest";
import { ExchangeRecorder } from "./exchange-recorder.ts";

const SECRET = "s3cr3t-token-value";

function recordOne(responseBody: string, path = "/api/v1/namespaces") {
  const recorder = new ExchangeRecorder([SECRET]);
  recorder.record({
    method: "GET",
    path,
    status: 200,
    requestHeaders: new Headers({ authorization: `Bearer ${SECRET}`, accept: "application/json" }),
    responseHeaders: new Headers({ "content-type": "application/json", "set-cookie": "a=b" }),
    requestBody: "",
    responseBody,
    durationMs: 1.4,
  });
  return recorder.exchanges[0]!;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;

describe("the exchange recorder", () => {
  it("keeps a body of exactly 4 KiB whole and cuts a longer one to 4 KiB", () => {
    expect(recordOne("a".repeat(4096))).toMatchObject({ responseBody: "a".repeat(4096), truncated: false });
    expect(recordOne("a".repeat(5000))).toMatchObject({ responseBody: "a".repeat(4096), truncated: true });
  });

  it("counts bytes, not characters, and never splits a character", () => {
    // 3000 characters, 6000 bytes of UTF-8; and U+FFFD, what a Protobuf body read as text is full of.
    for (const [text, perChar] of [["é".repeat(3000), 2], ["\uFFFD".repeat(2000), 3]] as const) {
      const { responseBody, truncated } = recordOne(text);
      expect(truncated).toBe(true);
      expect(utf8Bytes(responseBody)).toBeLessThanOrEqual(4096);
      expect(responseBody).toBe(text.slice(0, Math.floor(4096 / perChar)));
    }
  });

  it("replaces the run's secrets in the path and bodies and keeps no credential header", () => {
    const exchange = recordOne(`{"token":"${SECRET}"}`, `/api?x=${SECRET}`);
    expect(JSON.stringify(exchange)).not.toContain(SECRET);
    expect(exchange.path).toBe("/api?x=[redacted]");
    expect(exchange.requestHeaders).toEqual({ accept: "application/json" });
    expect(exchange.responseHeaders).toEqual({ "content-type": "application/json" });
  });

  it("replaces the secrets' base64 and base64url forms too", () => {
    // A secret whose two encodings differ ("/" and "_") and whose base64 is padded.
    const secret = "token?>>";
    const recorder = new ExchangeRecorder([secret]);
    const body = `{"data":{"token":"${Buffer.from(secret).toString("base64")}"},"jwt":"x.${Buffer.from(secret).toString("base64url")}.y"}`;
    expect(body).toBe('{"data":{"token":"dG9rZW4/Pj4="},"jwt":"x.dG9rZW4_Pj4.y"}');
    expect(recorder.redact(body)).toBe('{"data":{"token":"[redacted]="},"jwt":"x.[redacted].y"}');
  });
});
