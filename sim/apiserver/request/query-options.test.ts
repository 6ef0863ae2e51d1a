import { describe, expect, it } from "vitest";
import { ApiError } from "../responses/api-error.ts";
import { timeoutSeconds } from "./query-options.ts";

// Expected answers from transcripts list-timeout-* of spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl.
function parse(value: string): number | string | undefined {
  try {
    return timeoutSeconds(new URLSearchParams({ timeoutSeconds: value }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return `${error.code} ${error.status.reason}: ${error.status.message}`;
  }
}

describe("timeoutSeconds", () => {
  it("parses as Go's strconv.ParseInt does", () => {
    expect(timeoutSeconds(new URLSearchParams())).toBeUndefined();
    expect(parse("30")).toBe(30);
    expect(parse("+5")).toBe(5);
    expect(parse("-1")).toBe(-1);
    expect(parse("abc")).toBe('400 BadRequest: strconv.ParseInt: parsing "abc": invalid syntax');
    expect(parse("1.5")).toBe('400 BadRequest: strconv.ParseInt: parsing "1.5": invalid syntax');
    expect(parse("")).toBe('400 BadRequest: strconv.ParseInt: parsing "": invalid syntax');
    expect(parse("99999999999999999999")).toBe('400 BadRequest: strconv.ParseInt: parsing "99999999999999999999": value out of range');
    expect(parse("9223372036854775807")).toBe(9223372036854775807);
  });
});
