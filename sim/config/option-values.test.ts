import { describe, expect, it } from "vitest";
import { formatFeatureGates, parseFeatureGates } from "./feature-gates.ts";
import { defaultOptionValue, OptionValueError, parseOptionValue, parseStringToString, printOptionValue } from "./option-values.ts";
import { NamedCertKeyError, parseNamedCertKey } from "./tls-options.ts";

describe("parseStringToString (pflag)", () => {
  it("reads one pair whole, so --allow-metric-labels keys may hold a comma", () => {
    expect([...parseStringToString("metric,label=a,b")]).toEqual([["metric,label", "a,b"]]);
  });

  it("reads several pairs as a CSV record", () => {
    expect([...parseStringToString('a=1,b=2')]).toEqual([["a", "1"], ["b", "2"]]);
    expect([...parseStringToString('"m,l=x,y",n=z')]).toEqual([["m,l", "x,y"], ["n", "z"]]);
  });

  it("rejects a pair without =", () => {
    expect(() => parseStringToString("novalue")).toThrow("must be formatted as key=value");
    expect(() => parseStringToString("a=1,b,c=2")).toThrow("b must be formatted as key=value");
  });
});

describe("parseFeatureGates", () => {
  it("reads A=true,B=false with Go booleans, trimming and skipping empty items", () => {
    expect([...parseFeatureGates("A=true, B = False,,C=1")]).toEqual([["A", true], ["B", false], ["C", true]]);
    expect(formatFeatureGates(parseFeatureGates("B=false,A=true"))).toBe("A=true,B=false");
  });

  it("rejects a gate without a value or with a non-boolean", () => {
    expect(() => parseFeatureGates("A")).toThrow("missing bool value for A");
    expect(() => parseFeatureGates("A=yes")).toThrow("invalid value of A=yes");
  });
});

describe("parseNamedCertKey (--tls-sni-cert-key)", () => {
  it("reads <cert>,<key> with optional :<domains>", () => {
    expect(parseNamedCertKey("a.crt,a.key")).toEqual({ certFile: "a.crt", keyFile: "a.key", names: [] });
    expect(parseNamedCertKey(" a.crt , a.key : *.example.io, example.io ")).toEqual({ certFile: "a.crt", keyFile: "a.key", names: ["*.example.io", "example.io"] });
  });

  it("rejects a missing key, extra paths and an empty names list", () => {
    expect(() => parseNamedCertKey("a.crt")).toThrow(NamedCertKeyError);
    expect(() => parseNamedCertKey("a,b,c")).toThrow("expected comma separated certificate and key file paths");
    expect(() => parseNamedCertKey("a.crt,a.key:")).toThrow("empty names list is not allowed");
  });
});

describe("parseOptionValue", () => {
  it("repeated list and map flags add up; scalars are replaced", () => {
    const first = parseOptionValue("strings", "a,b");
    expect(parseOptionValue("strings", "c", first).value).toEqual(["a", "b", "c"]);
    const gates = parseOptionValue("featureGates", "A=true");
    expect([...(parseOptionValue("featureGates", "B=false,A=false", gates).value as Map<string, boolean>)]).toEqual([["A", false], ["B", false]]);
    const sni = parseOptionValue("namedCertKeys", "a,b");
    expect(parseOptionValue("namedCertKeys", "c,d:x.io", sni).value).toHaveLength(2);
    expect(parseOptionValue("duration", "2s", parseOptionValue("duration", "1s")).value).toBe(2_000_000_000n);
  });

  it("reads klog's -v in base 10 only and --vmodule as pattern=N", () => {
    expect(parseOptionValue("level", "010").value).toBe(10);
    expect(() => parseOptionValue("level", "0x10")).toThrow(OptionValueError);
    expect(parseOptionValue("vmodule", "foo=2,bar*=0,").value).toEqual([{ pattern: "foo", level: 2 }]);
    expect(() => parseOptionValue("vmodule", "foo")).toThrow("expect comma-separated list of filename=N");
    expect(() => parseOptionValue("vmodule", "foo=-1")).toThrow("negative value for vmodule level");
  });

  it("reads --version as a bool or raw, and an IP or blank for --bind-address", () => {
    expect(parseOptionValue("version", "raw").value).toBe("raw");
    expect(parseOptionValue("version", "T").value).toBe("true");
    expect(parseOptionValue("ip", "").value).toBe("");
    expect(parseOptionValue("ip", "::").value).toBe("::");
    expect(() => parseOptionValue("ip", "1.2.3")).toThrow("failed to parse IP");
    expect(() => parseOptionValue("ip", "01.2.3.4")).toThrow("failed to parse IP");
  });

  it("int is int64 (held exactly up to 2^53) and int32 is range-checked", () => {
    expect(parseOptionValue("int", "0x10").value).toBe(16);
    expect(() => parseOptionValue("int32", "2147483648")).toThrow("value out of range");
    expect(() => parseOptionValue("int", "9007199254740993")).toThrow("2^53");
  });
});

describe("defaults and printing", () => {
  it("doc 2's none is the zero value, [] the empty map, and durations print as Go prints them", () => {
    expect(defaultOptionValue("duration", null).value).toBe(0n);
    expect(printOptionValue(defaultOptionValue("duration", "8760h0m0s"))).toBe("8760h0m0s");
    expect(printOptionValue(defaultOptionValue("stringToString", "[]"))).toEqual({});
    expect(printOptionValue(defaultOptionValue("strings", "/healthz,/readyz,/livez"))).toEqual(["/healthz", "/readyz", "/livez"]);
    expect(printOptionValue(parseOptionValue("vmodule", "a=1,b=2"))).toBe("a=1,b=2");
  });
});
