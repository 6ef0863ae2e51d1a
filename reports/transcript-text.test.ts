import { describe, expect, it } from "vitest";
import { clipUtf8, formatMs, transcriptText } from "./transcript-text.ts";
import { exchange } from "./test-support/fixtures.ts";

describe("clipUtf8", () => {
  it("cuts at a character boundary by UTF-8 bytes", () => {
    expect(clipUtf8("abc", 3)).toEqual({ text: "abc", cutBytes: 0 });
    expect(clipUtf8("ab🚀", 5)).toEqual({ text: "ab", cutBytes: 4 }); // the emoji is 4 bytes
    expect(clipUtf8("éé", 3)).toEqual({ text: "é", cutBytes: 2 });
  });
});

describe("transcriptText", () => {
  it("shows each exchange curl-style, request then response, and says when nothing came back", () => {
    const text = transcriptText([
      exchange({ method: "PUT", requestBody: '{"a":1}', responseHeaders: { "retry-after": "1", "content-type": "application/json" } }),
      exchange({ status: 0, responseBody: "" }),
    ]);
    expect(text).toBe(
      [
        "#1 PUT /api/v1/namespaces/default/configmaps?limit=2 → 200 (3 ms)",
        "> accept: application/json",
        ">",
        '> {"a":1}',
        "< content-type: application/json",
        "< retry-after: 1",
        "<",
        '< {"kind":"ConfigMapList","metadata":{"resourceVersion":"12"}}',
        "",
        "#2 GET /api/v1/namespaces/default/configmaps?limit=2 → no response (3 ms)",
        "> accept: application/json",
      ].join("\n"),
    );
    expect(transcriptText([])).toBe("(no HTTP exchanges recorded)");
  });

  it("marks a body cut when recorded", () => {
    expect(transcriptText([exchange({ truncated: true })])).toContain("< [… body cut to 4 KiB when recorded]");
  });
});

describe("formatMs", () => {
  it("prints ms, seconds and minutes", () => {
    expect([formatMs(850), formatMs(1250), formatMs(10_000), formatMs(125_000)]).toEqual(["850 ms", "1.25 s", "10 s", "2 min 5 s"]);
  });
});
